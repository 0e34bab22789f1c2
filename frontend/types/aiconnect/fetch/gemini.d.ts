/**
 * Read a generateContent request into the wallet's chat format.
 *
 * @param {any} body
 * @param {URL} url
 * @returns {WalletCall}
 */
export function read(body: any, url: URL): WalletCall;
/**
 * Return the `GenerateContentResponse` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response: ChatResponse): {
    candidates: {
        content: {
            role: string;
            parts: ({
                functionCall: {
                    id: string;
                    name: string;
                    args: Record<string, unknown>;
                };
            } | {
                text: string;
            })[];
        };
        finishReason: string;
        index: number;
    }[];
    usageMetadata: {
        promptTokenCount: number;
        candidatesTokenCount: number;
        totalTokenCount: number;
        cachedContentTokenCount: number;
    } | undefined;
    modelVersion: string;
    responseId: string;
};
/**
 * Return the writer of a streamGenerateContent SSE stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start: import("../types.js").ChatStart): import("./shared.js").StreamWriter;
/**
 * Return Google's error body.
 *
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status: number, message: string): {
    error: {
        code: number;
        message: string;
        status: string;
    };
};
export type ChatMessage = import("../types.js").ChatMessage;
export type ContentPart = import("../types.js").ContentPart;
export type ChatResponse = import("../types.js").ChatResponse;
export type GenerationOptions = import("../types.js").GenerationOptions;
export type JsonSchema = import("../types.js").JsonSchema;
export type WalletCall = import("./shared.js").WalletCall;
