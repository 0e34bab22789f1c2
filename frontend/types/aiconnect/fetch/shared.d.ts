/**
 * Return a JSON response.
 *
 * @param {number} status
 * @param {object} body
 * @returns {Response}
 */
export function jsonResponse(status: number, body: object): Response;
/**
 * Return a 200 response that streams server-sent events.
 *
 * @param {ReadableStream<Uint8Array>} body
 * @returns {Response}
 */
export function sseResponse(body: ReadableStream<Uint8Array>): Response;
/**
 * Return one SSE event: `data:` alone, or named with `event:` as well.
 *
 * @param {object | string} data An object (sent as JSON) or a raw string such as `[DONE]`.
 * @param {string} [event]
 * @returns {string}
 */
export function sse(data: object | string, event?: string): string;
/**
 * Return a random id with a protocol's prefix, such as `msg_`.
 *
 * @param {string} prefix
 * @returns {string}
 */
export function newId(prefix: string): string;
/**
 * Return the parsed arguments of a tool call sent as a JSON string.
 *
 * @param {unknown} text
 * @returns {Record<string, unknown>}
 */
export function parseArguments(text: unknown): Record<string, unknown>;
/**
 * Return the error type name of a status, as OpenAI and Anthropic spell them.
 *
 * @param {number} status
 * @returns {string}
 */
export function errorType(status: number): string;
/**
 * Set `key` on `target` when `value` is neither undefined nor null.
 *
 * @template {object} T
 * @param {T} target
 * @param {keyof T} key
 * @param {unknown} value
 */
export function setIf<T extends object>(target: T, key: keyof T, value: unknown): void;
/**
 * Return an object's `type`-tagged blocks as a checked list, or raise `BadRequest`.
 *
 * @param {unknown} value
 * @param {string} what What the list is, for the message.
 * @returns {any[]}
 */
export function listOf(value: unknown, what: string): any[];
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
}
export type ChatMessage = import("../types.js").ChatMessage;
export type ChatResponse = import("../types.js").ChatResponse;
export type ChatStart = import("../types.js").ChatStart;
export type GenerationOptions = import("../types.js").GenerationOptions;
export type ToolDefinition = import("../types.js").ToolDefinition;
export type Usage = import("../types.js").Usage;
/**
 * A request read into the wallet's chat format.
 */
export type WalletCall = {
    messages: ChatMessage[];
    tools?: import("../types.js").ToolDefinition[] | undefined;
    options?: import("../types.js").GenerationOptions | undefined;
    /**
     * Whether the SDK asked for a stream.
     */
    stream: boolean;
    /**
     * Whether a stream ends with the token counts (OpenAI asks).
     */
    includeUsage?: boolean | undefined;
};
/**
 * Writes one answer as a protocol's SSE text. The driver calls `open` once, when the first
 * text or the result arrives, then `text` per piece, then `end` or `fail`.
 */
export type StreamWriter = {
    open: () => string;
    text: (delta: string) => string;
    end: (response: ChatResponse) => string;
    fail: (status: number, message: string) => string;
};
/**
 * One SDK protocol, to the wallet's chat format and back.
 */
export type Translator = {
    /**
     * Raises `BadRequest` for what it cannot read.
     */
    read: (body: any, url: URL) => WalletCall;
    /**
     * The body of a whole (not streamed) answer.
     */
    whole: (response: ChatResponse) => object;
    stream: (start: ChatStart, call: WalletCall) => StreamWriter;
    /**
     * The protocol's error shape.
     */
    errorBody: (status: number, message: string) => object;
};
