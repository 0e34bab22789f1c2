/**
 * The OpenAI request for a wallet `chat`'s params (without a model name: the server names it).
 *
 * @param {any} params
 * @param {boolean} stream
 * @returns {Record<string, unknown>}
 */
export function chatRequest(params: any, stream: boolean): Record<string, unknown>;
/**
 * Ask the model server at `url` (its /v1 base) one wallet chat, streamed: yields each text piece
 * as it comes, and returns the wallet's ChatResponse (`message`, `finishReason`, `model`, `usage`
 * when the server gave it). Throws a ModelServerError before the first piece when the server
 * refuses (409 and the cassette's message for a chat never recorded) or cannot be reached.
 *
 * @param {string} url
 * @param {any} params
 * @param {string} fallbackModel the model the result names when the server names none
 * @returns {AsyncGenerator<string, any>}
 */
export function askChat(url: string, params: any, fallbackModel: string): AsyncGenerator<string, any>;
/** Raised when the model server refuses or fails; `status` 409 is a chat the cassette has no recording of. */
export class ModelServerError extends Error {
    /** @param {string} message @param {number} status */
    constructor(message: string, status: number);
    status: number;
}
