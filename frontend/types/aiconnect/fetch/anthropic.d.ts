/**
 * Read a Messages request into the wallet's chat format.
 *
 * @param {any} body
 * @returns {WalletCall}
 */
export function read(body: any): WalletCall;
/**
 * Return the `message` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response: ChatResponse): {
    id: string;
    type: string;
    role: string;
    model: string;
    content: ({
        type: string;
        id: string;
        name: string;
        input: Record<string, unknown>;
    } | {
        type: string;
        text: string;
    })[];
    stop_reason: string;
    stop_sequence: null;
    usage: {
        input_tokens: number;
        output_tokens: number;
        cache_read_input_tokens: number;
        cache_creation_input_tokens: number;
    };
};
/**
 * Return the writer of a Messages event stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start: import("../types.js").ChatStart): import("./shared.js").StreamWriter;
/**
 * Return Anthropic's error body.
 *
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status: number, message: string): {
    type: string;
    error: {
        type: string;
        message: string;
    };
};
export type ChatMessage = import("../types.js").ChatMessage;
export type ContentPart = import("../types.js").ContentPart;
export type ChatResponse = import("../types.js").ChatResponse;
export type GenerationOptions = import("../types.js").GenerationOptions;
export type WalletCall = import("./shared.js").WalletCall;
