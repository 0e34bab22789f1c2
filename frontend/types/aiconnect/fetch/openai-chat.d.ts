/**
 * Read a Chat Completions request into the wallet's chat format.
 *
 * @param {any} body
 * @returns {WalletCall}
 */
export function read(body: any): WalletCall;
/**
 * Return the `chat.completion` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response: ChatResponse): {
    id: string;
    object: string;
    created: number;
    model: string;
    choices: {
        index: number;
        message: {
            tool_calls?: {
                id: string;
                type: string;
                function: {
                    name: string;
                    arguments: string;
                };
            }[] | undefined;
            role: string;
            content: string | null;
            refusal: null;
        };
        logprobs: null;
        finish_reason: string;
    }[];
    usage: {
        prompt_tokens: number;
        completion_tokens: number;
        total_tokens: number;
        prompt_tokens_details: {
            cached_tokens: number;
        };
    } | undefined;
};
/**
 * Return the writer of a `chat.completion.chunk` stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @param {WalletCall} call
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start: import("../types.js").ChatStart, call: WalletCall): import("./shared.js").StreamWriter;
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
export type ContentPart = import("../types.js").ContentPart;
export type ChatResponse = import("../types.js").ChatResponse;
export type GenerationOptions = import("../types.js").GenerationOptions;
export type Usage = import("../types.js").Usage;
export type WalletCall = import("./shared.js").WalletCall;
