/**
 * What the ways share about a request: the choices told as an instruction to models that have no
 * `choices` parameter, a model's answer read as one of the choices, and a promise that an
 * `AbortSignal` can end even when the way underneath cannot be stopped.
 */
/** @typedef {import('./types.js').TextMessage} TextMessage */
/**
 * Return `messages` with an instruction to answer with one of `choices` added to the system
 * prompt (a new system message when there is none). Without choices, `messages` as they are.
 *
 * @param {TextMessage[]} messages
 * @param {string[] | undefined} choices
 * @returns {TextMessage[]}
 */
export function withChoices(messages: TextMessage[], choices: string[] | undefined): TextMessage[];
/**
 * Return the choice a model's answer names, or `null` when it names none: case, surrounding
 * spaces, quotes and a final full stop are forgiven; anything else is not a choice.
 *
 * @param {string} text
 * @param {string[]} choices
 * @returns {string | null}
 */
export function matchChoice(text: string, choices: string[]): string | null;
/**
 * Settle with `promise`, or reject with the signal's reason as soon as it aborts (the work
 * underneath may go on; its late result is dropped).
 *
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<T>}
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T>;
export type TextMessage = import("./types.js").TextMessage;
