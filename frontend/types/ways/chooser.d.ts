/**
 * A way's label inside a sentence: "Your …" and "The …" read "your …", "the …" ("AI Wallet" stays).
 *
 * @param {string} label
 * @returns {string}
 */
export function inSentence(label: string): string;
/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').WayId} WayId */
/** @typedef {import('./types.js').GenerateRequest} GenerateRequest */
/** @typedef {import('./types.js').ConnectOptions} ConnectOptions */
/**
 * The order in which ways are offered, and in which a way that is ready without a click is
 * picked at the start: the visitor's own wallet (AI Wallet, then the BYOA extension, then the
 * BYOA wallet by link), then the browser's built-in model, then own mode, always last.
 *
 * @type {readonly WayId[]}
 */
export const WAY_ORDER: readonly WayId[];
/**
 * How long a way may take to say whether it is present (AI Wallet's own discovery takes 300 ms);
 * a way that has not said by then counts as absent, so that one hanging API cannot hold the page.
 */
export const DETECT_TIMEOUT_MS: 3000;
/** @typedef {{ text: string, way: WayId, model?: string, data?: unknown }} ChosenAnswer */
export class WayChooser {
    /**
     * @param {Way[]} ways The ways this page can use, in any order; own mode is added when missing.
     */
    constructor(ways: Way[]);
    /** What the visitor should know about the last switch ('' when nothing). */
    notice: string;
    /** @type {Promise<void>} Resolves when every way has been detected. */
    ready: Promise<void>;
    /** The ways present in this browser, in `WAY_ORDER` (own mode last, always there). */
    get ways(): import("./types.js").Way[];
    /** The way that answers now. */
    get current(): import("./types.js").Way;
    /**
     * Call `listener` whenever the ways, the current way or the notice change; return a function
     * that removes it.
     *
     * @param {(chooser: WayChooser) => void} listener
     * @returns {() => void}
     */
    subscribe(listener: (chooser: WayChooser) => void): () => void;
    /**
     * Switch to the way `id`, starting it when it is not ready: call this from the visitor's click.
     * Resolves `true` when that way answers from now on; `false` when it said no, and then own mode
     * answers and `notice` says why. Aborting `options.signal` while the way connects (the visitor
     * stopped waiting for a consent or a link) resolves `false` at once; the way's late answer
     * is dropped.
     *
     * @param {WayId} id
     * @param {ConnectOptions} [options]
     * @returns {Promise<boolean>}
     */
    use(id: WayId, options?: ConnectOptions): Promise<boolean>;
    /**
     * Ask the current way for text. Resolves with the answer, or `null` when own mode is current
     * or the way said no (then own mode becomes current, with a notice). Rejects with the signal's
     * reason when aborted, and with a RangeError for a model the way was not granted.
     *
     * With `{ fallBack: false }` a "no" resolves `null` and changes nothing (e.g. a second model's
     * check, whose failure should not end the first model's way).
     *
     * @param {GenerateRequest} request
     * @param {{ fallBack?: boolean }} [options]
     * @returns {Promise<ChosenAnswer | null>}
     */
    generate(request: GenerateRequest, { fallBack }?: {
        fallBack?: boolean;
    }): Promise<ChosenAnswer | null>;
    #private;
}
export type Way = import("./types.js").Way;
export type WayId = import("./types.js").WayId;
export type GenerateRequest = import("./types.js").GenerateRequest;
export type ConnectOptions = import("./types.js").ConnectOptions;
export type ChosenAnswer = {
    text: string;
    way: WayId;
    model?: string;
    data?: unknown;
};
