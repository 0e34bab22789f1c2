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
export function read(body: any): WalletCall;
/**
 * Return the `response` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response: ChatResponse): {
    id: string;
    object: string;
    created_at: number;
    status: string;
    error: null;
    incomplete_details: {
        reason: string;
    } | null;
    model: string;
    output: object[];
    parallel_tool_calls: boolean;
    tool_choice: string;
    tools: never[];
    usage: {
        input_tokens: number;
        input_tokens_details: {
            cached_tokens: number;
        };
        output_tokens: number;
        output_tokens_details: {
            reasoning_tokens: number;
        };
        total_tokens: number;
    } | null;
};
/**
 * Return the writer of a Responses event stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start: import("../types.js").ChatStart): import("./shared.js").StreamWriter;
/**
 * Return OpenAI's error body.
 *
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status: number, message: string): {
    error: {
        message: string;
        type: string;
        param: null;
        code: null;
    };
};
export type ChatMessage = import("../types.js").ChatMessage;
export type AssistantMessage = import("../types.js").AssistantMessage;
export type ContentPart = import("../types.js").ContentPart;
export type ChatResponse = import("../types.js").ChatResponse;
export type GenerationOptions = import("../types.js").GenerationOptions;
export type WalletCall = import("./shared.js").WalletCall;
