// @ts-check
/**
 * WalletFetch translator for the OpenAI Responses API (`POST …/responses`), streamed (the
 * `response.*` events) and whole (a `response` object).
 *
 * The wallet keeps no conversation (wallet-provider.md, "chat"), so a request must carry its
 * whole input: `previous_response_id` is refused. SDKs that store responses (the Vercel AI SDK
 * does by default) send an `item_reference` for an output item instead of the item; this module
 * remembers the last output items it wrote in this page, so such references resolve.
 * `reasoning` items belong to the provider that wrote them and are skipped.
 */

import { BadRequest, errorType, listOf, newId, parseArguments, setIf, sse } from './shared.js';

/** The output items this page received, by id, for `item_reference` (oldest first). */
const written = new Map();
const REMEMBERED_ITEMS = 500;

/** @param {any} item */
function remember(item) {
  written.set(item.id, item);
  if (written.size > REMEMBERED_ITEMS) written.delete(written.keys().next().value);
}

/** @typedef {import('../types.js').ChatMessage} ChatMessage */
/** @typedef {import('../types.js').AssistantMessage} AssistantMessage */
/** @typedef {import('../types.js').ContentPart} ContentPart */
/** @typedef {import('../types.js').ChatResponse} ChatResponse */
/** @typedef {import('../types.js').GenerationOptions} GenerationOptions */
/** @typedef {import('./shared.js').WalletCall} WalletCall */

/**
 * Read a Responses request into the wallet's chat format.
 *
 * @param {any} body
 * @returns {WalletCall}
 */
export function read(body) {
  if (body?.previous_response_id) {
    throw new BadRequest('AI Wallet keeps no responses: send the whole conversation as input');
  }
  /** @type {ChatMessage[]} */
  const messages = [];
  if (body.instructions) messages.push({ role: 'system', content: String(body.instructions) });
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : listOf(body.input, 'input');
  /** @type {Map<string, string>} */
  const toolNames = new Map();
  for (const item of input) readItem(item, messages, toolNames);
  return { messages, ...readTools(body.tools), options: readOptions(body), stream: body.stream === true };
}

/**
 * Add one input item to `messages`: function calls join the assistant turn they follow.
 *
 * @param {any} item
 * @param {ChatMessage[]} messages
 * @param {Map<string, string>} toolNames
 */
function readItem(item, messages, toolNames) {
  switch (item.type ?? 'message') {
    case 'message':
      if (item.role === 'user') messages.push({ role: 'user', content: userContent(item.content) });
      else if (item.role === 'assistant') messages.push({ role: 'assistant', content: plainText(item.content) });
      else if (item.role === 'system' || item.role === 'developer') {
        messages.push({ role: 'system', content: plainText(item.content) });
      } else throw new BadRequest(`AI Wallet does not take messages with the role "${item.role}"`);
      return;
    case 'function_call': {
      const last = messages.at(-1);
      /** @type {AssistantMessage} */
      const turn = last?.role === 'assistant' ? last : { role: 'assistant', content: '' };
      if (turn !== last) messages.push(turn);
      toolNames.set(item.call_id, item.name);
      (turn.toolCalls ??= []).push({ id: item.call_id, name: item.name, arguments: parseArguments(item.arguments) });
      return;
    }
    case 'function_call_output':
      messages.push({
        role: 'tool', toolCallId: item.call_id, name: toolNames.get(item.call_id) ?? '', content: plainText(item.output),
      });
      return;
    case 'item_reference': {
      const original = written.get(item.id);
      if (!original) throw new BadRequest(`AI Wallet keeps no item ${item.id}: send the item itself`);
      return readItem(original, messages, toolNames);
    }
    case 'reasoning':
      return;
    default:
      throw new BadRequest(`AI Wallet does not take input items of the type "${item.type}"`);
  }
}

/**
 * @param {any} tools
 * @returns {{ tools?: import('../types.js').ToolDefinition[] }}
 */
function readTools(tools) {
  if (!tools?.length) return {};
  return {
    tools: tools.map((/** @type {any} */ tool) => {
      if (tool.type !== 'function') throw new BadRequest(`AI Wallet offers function tools only, not "${tool.type}"`);
      return { name: tool.name, description: tool.description ?? '',
        inputSchema: tool.parameters ?? { type: 'object', properties: {} } };
    }),
  };
}

/**
 * @param {any} body
 * @returns {GenerationOptions}
 */
function readOptions(body) {
  /** @type {GenerationOptions} */
  const options = {};
  setIf(options, 'maxTokens', body.max_output_tokens);
  setIf(options, 'temperature', body.temperature);
  setIf(options, 'topP', body.top_p);
  const choice = body.tool_choice;
  setIf(options, 'toolChoice', typeof choice === 'object' && choice ? { name: choice.name } : choice);
  const format = body.text?.format;
  if (format?.type === 'json_object') options.responseFormat = { type: 'json' };
  if (format?.type === 'json_schema') {
    options.responseFormat = { type: 'json' };
    setIf(options.responseFormat, 'schema', format.schema);
    setIf(options.responseFormat, 'name', format.name);
    setIf(options.responseFormat, 'strict', format.strict);
  }
  return options;
}

/**
 * @param {any} content A string, or a list of `input_text` / `output_text` parts.
 * @returns {string}
 */
function plainText(content) {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return listOf(content, 'content').map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * @param {any} content
 * @returns {string | ContentPart[]}
 */
function userContent(content) {
  if (typeof content === 'string') return content;
  return listOf(content, 'content').map((part) => {
    if (part.type === 'input_text') return { type: 'text', text: part.text };
    if (part.type === 'input_image' && part.image_url) return { type: 'image', url: part.image_url };
    throw new BadRequest(`AI Wallet takes text and images by URL, not "${part.type}" parts`);
  });
}

/**
 * @param {string} id
 * @param {string} text
 * @param {'in_progress' | 'completed'} status
 */
function messageItem(id, text, status) {
  const content = status === 'completed' ? [textPart(text)] : [];
  return { type: 'message', id, status, role: 'assistant', content };
}

/** @param {string} text */
function textPart(text) {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

/**
 * @param {import('../types.js').ToolCall} call
 * @param {string} args
 * @param {'in_progress' | 'completed'} status
 */
function callItem(call, args, status) {
  return { type: 'function_call', id: `fc_${call.id}`, call_id: call.id, name: call.name, arguments: args, status };
}

/**
 * Return a `response` object.
 *
 * @param {string} id
 * @param {string} model
 * @param {object[]} output
 * @param {ChatResponse} [response] The answer; absent while it is in progress.
 */
function responseObject(id, model, output, response) {
  const reason = response?.finishReason;
  const incomplete = reason === 'length' ? 'max_output_tokens' : reason === 'contentFilter' ? 'content_filter' : null;
  const usage = response?.usage;
  return {
    id, object: 'response', created_at: Math.floor(Date.now() / 1000),
    status: !response ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    error: null, incomplete_details: incomplete ? { reason: incomplete } : null,
    model, output, parallel_tool_calls: true, tool_choice: 'auto', tools: [],
    usage: usage ? {
      input_tokens: usage.inputTokens, input_tokens_details: { cached_tokens: usage.cachedInputTokens },
      output_tokens: usage.outputTokens, output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.inputTokens + usage.outputTokens,
    } : null,
  };
}

/**
 * Return the `response` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response) {
  const { content, toolCalls = [] } = response.message;
  const output = [
    ...(content ? [messageItem(newId('msg_'), content, 'completed')] : []),
    ...toolCalls.map((call) => callItem(call, JSON.stringify(call.arguments), 'completed')),
  ];
  output.forEach(remember);
  return responseObject(newId('resp_'), response.model, output, response);
}

/**
 * Return the writer of a Responses event stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start) {
  const id = newId('resp_');
  const messageId = newId('msg_');
  let sequence = 0;
  let text = '';
  let messageOpen = false;
  /** @type {object[]} */
  const output = [];
  /**
   * @param {string} type
   * @param {object} fields
   */
  const event = (type, fields) => sse({ type, sequence_number: sequence++, ...fields }, type);
  const where = (/** @type {number} */ index) => ({ item_id: messageId, output_index: index, content_index: 0 });
  return {
    // `response.created` names the model from the wallet's `start` event.
    open: () => event('response.created', { response: responseObject(id, start.model, []) })
      + event('response.in_progress', { response: responseObject(id, start.model, []) }),
    text: (delta) => {
      let out = '';
      if (!messageOpen) {
        messageOpen = true;
        out += event('response.output_item.added', { output_index: 0, item: messageItem(messageId, '', 'in_progress') });
        out += event('response.content_part.added', { ...where(0), part: textPart('') });
      }
      text += delta;
      return out + event('response.output_text.delta', { ...where(0), delta, logprobs: [] });
    },
    end: (response) => {
      let out = '';
      if (messageOpen) {
        const item = messageItem(messageId, text, 'completed');
        out += event('response.output_text.done', { ...where(0), text, logprobs: [] });
        out += event('response.content_part.done', { ...where(0), part: textPart(text) });
        out += event('response.output_item.done', { output_index: 0, item });
        output.push(item);
      }
      for (const call of response.message.toolCalls ?? []) {
        const index = output.length;
        const args = JSON.stringify(call.arguments);
        const item = callItem(call, args, 'completed');
        out += event('response.output_item.added', { output_index: index, item: callItem(call, '', 'in_progress') });
        out += event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: args });
        out += event('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: args });
        out += event('response.output_item.done', { output_index: index, item });
        output.push(item);
      }
      output.forEach(remember);
      const final = responseObject(id, response.model, output, response);
      return out + event(final.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: final });
    },
    // The `error` field makes the OpenAI SDK raise its APIError on this event.
    fail: (status, message) => event('error', {
      code: errorType(status), message, param: null, error: errorBody(status, message).error,
    }),
  };
}

/**
 * Return OpenAI's error body.
 *
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status, message) {
  return { error: { message, type: errorType(status), param: null, code: null } };
}
