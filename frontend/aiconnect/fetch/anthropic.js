// @ts-check
/**
 * WalletFetch translator for Anthropic Messages (`POST …/messages`), streamed (`message_start`
 * … `message_stop`) and whole (a `message`).
 *
 * Anthropic counts cached input apart from `input_tokens`, while the wallet's `inputTokens`
 * includes `cachedInputTokens` (aiconnect-core.md, "Usage"): the translation subtracts it.
 */

import { dataUrl, toolErrorText } from '../content.js';
import { BadRequest, errorType, listOf, newId, setIf, sse } from './shared.js';

/** @typedef {import('../types.js').ChatMessage} ChatMessage */
/** @typedef {import('../types.js').ContentPart} ContentPart */
/** @typedef {import('../types.js').ChatResponse} ChatResponse */
/** @typedef {import('../types.js').GenerationOptions} GenerationOptions */
/** @typedef {import('./shared.js').WalletCall} WalletCall */

const STOP = { stop: 'end_turn', length: 'max_tokens', toolCalls: 'tool_use', contentFilter: 'refusal' };
/** @type {Record<string, import('../types.js').ToolChoice>} */
const CHOICE = { auto: 'auto', any: 'required', none: 'none' };

/**
 * Read a Messages request into the wallet's chat format.
 *
 * @param {any} body
 * @returns {WalletCall}
 */
export function read(body) {
  /** @type {ChatMessage[]} */
  const messages = [];
  if (body?.system) messages.push({ role: 'system', content: blocksText(body.system, '\n') });
  /** @type {Map<string, string>} */
  const toolNames = new Map();
  for (const message of listOf(body?.messages, 'messages')) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : listOf(message.content, 'content');
    if (message.role === 'assistant') messages.push(assistantTurn(blocks, toolNames));
    else if (message.role === 'user') messages.push(...userTurn(blocks, toolNames));
    else throw new BadRequest(`AI Wallet does not take messages with the role "${message.role}"`);
  }
  return { messages, ...readTools(body.tools), options: readOptions(body), stream: body.stream === true };
}

/**
 * @param {any[]} blocks
 * @param {Map<string, string>} toolNames
 * @returns {import('../types.js').AssistantMessage}
 */
function assistantTurn(blocks, toolNames) {
  let content = '';
  /** @type {import('../types.js').ToolCall[]} */
  const toolCalls = [];
  for (const block of blocks) {
    if (block.type === 'text') content += block.text;
    if (block.type === 'tool_use') {
      toolNames.set(block.id, block.name);
      toolCalls.push({ id: block.id, name: block.name, arguments: block.input ?? {} });
    }
    // thinking and redacted_thinking blocks belong to the provider that wrote them: skipped.
  }
  return { role: 'assistant', content, ...(toolCalls.length ? { toolCalls } : {}) };
}

/**
 * Return a user turn as the tool results it carries, then the rest as one user message.
 *
 * @param {any[]} blocks
 * @param {Map<string, string>} toolNames
 * @returns {ChatMessage[]}
 */
function userTurn(blocks, toolNames) {
  /** @type {ChatMessage[]} */
  const results = [];
  /** @type {ContentPart[]} */
  const parts = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      const text = typeof block.content === 'string' ? block.content : blocksText(block.content ?? [], '\n');
      results.push({
        role: 'tool', toolCallId: block.tool_use_id, name: toolNames.get(block.tool_use_id) ?? '',
        // The wallet's tool messages carry no error flag; the text says it, as runConversation does.
        content: block.is_error ? toolErrorText(text) : text,
      });
    } else if (block.type === 'text') {
      parts.push({ type: 'text', text: block.text });
    } else if (block.type === 'image') {
      const { source } = block;
      parts.push({ type: 'image', url: source.type === 'base64' ? dataUrl({ mediaType: source.media_type, data: source.data }) : source.url });
    } else {
      throw new BadRequest(`AI Wallet takes text and images, not "${block.type}" blocks`);
    }
  }
  const textOnly = parts.every((part) => part.type === 'text');
  const content = textOnly ? parts.map((part) => /** @type {{ text: string }} */ (part).text).join('') : parts;
  return parts.length ? [...results, { role: 'user', content }] : results;
}

/**
 * @param {any} blocks A string, or a list of text blocks.
 * @param {string} separator
 * @returns {string}
 */
function blocksText(blocks, separator) {
  if (typeof blocks === 'string') return blocks;
  return listOf(blocks, 'content').filter((block) => block.type === 'text').map((block) => block.text).join(separator);
}

/**
 * @param {any} tools
 * @returns {{ tools?: import('../types.js').ToolDefinition[] }}
 */
function readTools(tools) {
  if (!tools?.length) return {};
  return {
    tools: tools.map((/** @type {any} */ tool) => {
      if (tool.type && tool.type !== 'custom') throw new BadRequest(`AI Wallet offers custom tools only, not "${tool.type}"`);
      return { name: tool.name, description: tool.description ?? '', inputSchema: tool.input_schema };
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
  setIf(options, 'maxTokens', body.max_tokens);
  setIf(options, 'temperature', body.temperature);
  setIf(options, 'topP', body.top_p);
  setIf(options, 'stop', body.stop_sequences);
  const choice = body.tool_choice;
  if (choice) options.toolChoice = choice.type === 'tool' ? { name: choice.name } : CHOICE[choice.type];
  // Structured outputs: `output_config.format` today, `output_format` in the beta before it.
  const format = body.output_config?.format ?? body.output_format;
  if (format?.type === 'json_schema') {
    options.responseFormat = { type: 'json' };
    setIf(options.responseFormat, 'schema', format.schema);
  }
  return options;
}

/**
 * @param {ChatResponse} response
 */
function usageOf(response) {
  const { inputTokens = 0, outputTokens = 0, cachedInputTokens = 0 } = response.usage ?? {};
  return { input_tokens: inputTokens - cachedInputTokens, output_tokens: outputTokens,
    cache_read_input_tokens: cachedInputTokens, cache_creation_input_tokens: 0 };
}

/**
 * Return the `message` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response) {
  const { content, toolCalls = [] } = response.message;
  return {
    id: newId('msg_'), type: 'message', role: 'assistant', model: response.model,
    content: [
      ...(content ? [{ type: 'text', text: content }] : []),
      ...toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })),
    ],
    stop_reason: STOP[response.finishReason] ?? 'end_turn', stop_sequence: null, usage: usageOf(response),
  };
}

/**
 * Return the writer of a Messages event stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start) {
  let index = -1;
  let textOpen = false;
  /**
   * @param {string} type
   * @param {object} fields
   */
  const event = (type, fields) => sse({ type, ...fields }, type);
  return {
    // `message_start` names the model from the wallet's `start` event (wallet-provider.md,
    // "Streaming events"); the token counts come with `message_delta`, once they are known.
    open: () => event('message_start', { message: {
      id: newId('msg_'), type: 'message', role: 'assistant', model: start.model, content: [],
      stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 },
    } }),
    text: (delta) => {
      let out = '';
      if (!textOpen) {
        textOpen = true;
        index += 1;
        out += event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      }
      return out + event('content_block_delta', { index, delta: { type: 'text_delta', text: delta } });
    },
    end: (response) => {
      let out = textOpen ? event('content_block_stop', { index }) : '';
      for (const call of response.message.toolCalls ?? []) {
        index += 1;
        out += event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
        out += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.arguments) } });
        out += event('content_block_stop', { index });
      }
      out += event('message_delta', {
        delta: { stop_reason: STOP[response.finishReason] ?? 'end_turn', stop_sequence: null }, usage: usageOf(response),
      });
      return out + event('message_stop', {});
    },
    fail: (status, message) => event('error', errorBody(status, message)),
  };
}

/**
 * Return Anthropic's error body.
 *
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status, message) {
  return { type: 'error', error: { type: errorType(status), message } };
}
