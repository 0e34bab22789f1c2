// @ts-check
/**
 * What the WalletFetch translators share: the translator contract, HTTP responses, SSE framing,
 * ids, and the error a translator raises for a request it cannot read.
 */

/** @typedef {import('../types.js').ChatMessage} ChatMessage */
/** @typedef {import('../types.js').ChatResponse} ChatResponse */
/** @typedef {import('../types.js').ChatStart} ChatStart */
/** @typedef {import('../types.js').GenerationOptions} GenerationOptions */
/** @typedef {import('../types.js').ToolDefinition} ToolDefinition */
/** @typedef {import('../types.js').Usage} Usage */

/**
 * @typedef {object} WalletCall
 * A request read into the wallet's chat format.
 * @property {ChatMessage[]} messages
 * @property {ToolDefinition[]} [tools]
 * @property {GenerationOptions} [options]
 * @property {boolean} stream Whether the SDK asked for a stream.
 * @property {boolean} [includeUsage] Whether a stream ends with the token counts (OpenAI asks).
 */

/**
 * @typedef {object} StreamWriter
 * Writes one answer as a protocol's SSE text. The driver calls `open` once, when the first
 * text or the result arrives, then `text` per piece, then `end` or `fail`.
 * @property {() => string} open
 * @property {(delta: string) => string} text
 * @property {(response: ChatResponse) => string} end
 * @property {(status: number, message: string) => string} fail
 */

/**
 * @typedef {object} Translator
 * One SDK protocol, to the wallet's chat format and back.
 * @property {(body: any, url: URL) => WalletCall} read Raises `BadRequest` for what it cannot read.
 * @property {(response: ChatResponse) => object} whole The body of a whole (not streamed) answer.
 * @property {(start: ChatStart, call: WalletCall) => StreamWriter} stream
 * @property {(status: number, message: string) => object} errorBody The protocol's error shape.
 */

/** Raised when a translator meets a request it cannot carry to the wallet (an HTTP 400). */
export class BadRequest extends Error {
  name = 'BadRequest';
}

// The SDKs retry 429 and 5xx on their own unless told not to; a retry would ask the wallet (and
// the visitor's account) again for an answer the wallet already gave up on, or that the visitor
// stopped. Both the OpenAI and the Anthropic SDK read this header.
const NO_RETRY = { 'x-should-retry': 'false' };

/**
 * Return a JSON response.
 *
 * @param {number} status
 * @param {object} body
 * @returns {Response}
 */
export function jsonResponse(status, body) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...(status >= 400 ? NO_RETRY : {}) },
  });
}

/**
 * Return a 200 response that streams server-sent events.
 *
 * @param {ReadableStream<Uint8Array>} body
 * @returns {Response}
 */
export function sseResponse(body) {
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}

/**
 * Return one SSE event: `data:` alone, or named with `event:` as well.
 *
 * @param {object | string} data An object (sent as JSON) or a raw string such as `[DONE]`.
 * @param {string} [event]
 * @returns {string}
 */
export function sse(data, event) {
  const line = `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
  return event ? `event: ${event}\n${line}` : line;
}

/**
 * Return a random id with a protocol's prefix, such as `msg_`.
 *
 * @param {string} prefix
 * @returns {string}
 */
export function newId(prefix) {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return prefix + Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Return the parsed arguments of a tool call sent as a JSON string.
 *
 * @param {unknown} text
 * @returns {Record<string, unknown>}
 */
export function parseArguments(text) {
  if (typeof text !== 'string') return /** @type {Record<string, unknown>} */ (text ?? {});
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest(`A tool call's arguments are not JSON: ${text.slice(0, 80)}`);
  }
}

/**
 * Return the error type name of a status, as OpenAI and Anthropic spell them.
 *
 * @param {number} status
 * @returns {string}
 */
export function errorType(status) {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** @type {Record<number, string>} */
const ERROR_TYPES = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  499: 'api_error',
};

/**
 * Set `key` on `target` when `value` is neither undefined nor null.
 *
 * @template {object} T
 * @param {T} target
 * @param {keyof T} key
 * @param {unknown} value
 */
export function setIf(target, key, value) {
  if (value !== undefined && value !== null) target[key] = /** @type {any} */ (value);
}

/**
 * Return an object's `type`-tagged blocks as a checked list, or raise `BadRequest`.
 *
 * @param {unknown} value
 * @param {string} what What the list is, for the message.
 * @returns {any[]}
 */
export function listOf(value, what) {
  if (!Array.isArray(value)) throw new BadRequest(`${what} must be a list`);
  return value;
}
