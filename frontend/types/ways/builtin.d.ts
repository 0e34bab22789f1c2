/**
 * Return the built-in model way.
 *
 * @param {{ api?: LanguageModelApi | null, languages?: string[] }} [options] `api` defaults to the
 *   `LanguageModel` global; `languages` are the ones the page writes and reads (default `['en']`).
 * @returns {Way}
 */
export function builtinWay({ api, languages }?: {
    api?: LanguageModelApi | null;
    languages?: string[];
}): Way;
/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').TextMessage} TextMessage */
/**
 * @typedef {object} PromptSession The part of a `LanguageModel` session the way uses.
 * @property {(input: unknown, options?: object) => Promise<string>} prompt
 * @property {(input: unknown, options?: object) => ReadableStream<string>} promptStreaming
 * @property {() => void} destroy
 */
/**
 * @typedef {object} LanguageModelApi The part of the `LanguageModel` global the way uses.
 * @property {(options?: object) => Promise<string>} availability
 * @property {(options?: object) => Promise<PromptSession>} create
 */
/** Characters per token when cutting an answer at `maxTokens` (the API has no such limit). */
export const CHARS_PER_TOKEN: 4;
export type Way = import("./types.js").Way;
export type TextMessage = import("./types.js").TextMessage;
/**
 * The part of a `LanguageModel` session the way uses.
 */
export type PromptSession = {
    prompt: (input: unknown, options?: object) => Promise<string>;
    promptStreaming: (input: unknown, options?: object) => ReadableStream<string>;
    destroy: () => void;
};
/**
 * The part of the `LanguageModel` global the way uses.
 */
export type LanguageModelApi = {
    availability: (options?: object) => Promise<string>;
    create: (options?: object) => Promise<PromptSession>;
};
