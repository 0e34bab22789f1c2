// @ts-check
/**
 * WalletFetch translator for OpenAI Chat Completions (`POST …/chat/completions`), streamed
 * (`chat.completion.chunk` events ending with `[DONE]`) and whole (`chat.completion`).
 */

import { BadRequest, errorType, listOf, newId, parseArguments, setIf, sse } from './shared.js';

/** @typedef {import('../types.js').ChatMessage} ChatMessage */
/** @typedef {import('../types.js').ContentPart} ContentPart */
/** @typedef {import('../types.js').ChatResponse} ChatResponse */
/** @typedef {import('../types.js').GenerationOptions} GenerationOptions */
/** @typedef {import('../types.js').Usage} Usage */
/** @typedef {import('./shared.js').WalletCall} WalletCall */

const FINISH = { stop: 'stop', length: 'length', toolCalls: 'tool_calls', contentFilter: 'content_filter' };

/**
 * Read a Chat Completions request into the wallet's chat format.
 *
 * @param {any} body
 * @returns {WalletCall}
 */
export function read(body) {
  /** @type {ChatMessage[]} */
  const messages = [];
  /** @type {Map<string, string>} */
  const toolNames = new Map();
  for (const message of listOf(body?.messages, 'messages')) {
    switch (message.role) {
      case 'system':
      case 'developer':
        messages.push({ role: 'system', content: plainText(message.content) });
        break;
      case 'user':
        messages.push({ role: 'user', content: userContent(message.content) });
        break;
      case 'assistant': {
        const toolCalls = (message.tool_calls ?? []).map((/** @type {any} */ call) => {
          toolNames.set(call.id, call.function?.name);
          return { id: call.id, name: call.function?.name, arguments: parseArguments(call.function?.arguments) };
        });
        messages.push({ role: 'assistant', content: plainText(message.content), ...(toolCalls.length ? { toolCalls } : {}) });
        break;
      }
      case 'tool':
        messages.push({
          role: 'tool', toolCallId: message.tool_call_id,
          name: toolNames.get(message.tool_call_id) ?? '', content: plainText(message.content),
        });
        break;
      default:
        throw new BadRequest(`AI Wallet does not take messages with the role "${message.role}"`);
    }
  }
  return { messages, ...readTools(body.tools), options: readOptions(body), stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true };
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
      const { name, description = '', parameters = { type: 'object', properties: {} } } = tool.function;
      return { name, description, inputSchema: parameters };
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
  setIf(options, 'maxTokens', body.max_completion_tokens ?? body.max_tokens);
  setIf(options, 'temperature', body.temperature);
  setIf(options, 'topP', body.top_p);
  setIf(options, 'stop', typeof body.stop === 'string' ? [body.stop] : body.stop);
  const choice = body.tool_choice;
  setIf(options, 'toolChoice', typeof choice === 'object' && choice ? { name: choice.function?.name } : choice);
  const format = body.response_format;
  if (format?.type === 'json_object') options.responseFormat = { type: 'json' };
  if (format?.type === 'json_schema') {
    const { name, schema, strict } = format.json_schema ?? {};
    options.responseFormat = { type: 'json' };
    setIf(options.responseFormat, 'schema', schema);
    setIf(options.responseFormat, 'name', name);
    setIf(options.responseFormat, 'strict', strict);
  }
  return options;
}

/**
 * Return the text of a message content that is a string, null, or a list of text parts.
 *
 * @param {any} content
 * @returns {string}
 */
function plainText(content) {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return listOf(content, 'content').map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * @param {any} content
 * @returns {string | ContentPart[]}
 */
function userContent(content) {
  if (typeof content === 'string') return content;
  return listOf(content, 'content').map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image_url') return { type: 'image', url: part.image_url?.url };
    throw new BadRequest(`AI Wallet takes text and images, not "${part.type}" parts`);
  });
}

/**
 * Return the Chat Completions tool calls of an answer.
 *
 * @param {ChatResponse} response
 */
function toolCalls(response) {
  return (response.message.toolCalls ?? []).map((call, index) => ({
    index, id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

/**
 * @param {Usage | undefined} usage
 */
function usageOf(usage) {
  if (!usage) return undefined;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
  };
}

/**
 * Return the `chat.completion` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response) {
  const calls = toolCalls(response).map(({ index, ...call }) => call);
  const text = response.message.content;
  return {
    id: newId('chatcmpl-'), object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: response.model,
    choices: [{
      index: 0,
      message: { role: 'assistant', content: text || (calls.length ? null : ''), refusal: null,
        ...(calls.length ? { tool_calls: calls } : {}) },
      logprobs: null,
      finish_reason: FINISH[response.finishReason] ?? 'stop',
    }],
    usage: usageOf(response.usage),
  };
}

/**
 * Return the writer of a `chat.completion.chunk` stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @param {WalletCall} call
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start, call) {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  /**
   * @param {object} delta
   * @param {string | null} finish
   * @param {string} model
   */
  const chunk = (delta, finish = null, model = start.model) => sse({
    id, object: 'chat.completion.chunk', created, model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  return {
    // The first chunk names the model from the wallet's `start` event (wallet-provider.md,
    // "Streaming events"); the last ones name the model as the provider did.
    open: () => chunk({ role: 'assistant', content: '' }),
    text: (delta) => chunk({ content: delta }),
    end: (response) => {
      const calls = toolCalls(response);
      let out = calls.length ? chunk({ tool_calls: calls }) : '';
      out += chunk({}, FINISH[response.finishReason] ?? 'stop', response.model);
      if (call.includeUsage) {
        out += sse({ id, object: 'chat.completion.chunk', created, model: response.model, choices: [],
          usage: usageOf(response.usage) ?? null });
      }
      return out + sse('[DONE]');
    },
    fail: (status, message) => sse({ error: errorBody(status, message).error }),
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
