/**
 * Return `choice` when it is one of `allowed` consents, else throw a RangeError naming them.
 *
 * @param {unknown} choice
 * @param {readonly Consent[]} [allowed]
 * @returns {Consent}
 */
export function checkConsent(choice: unknown, allowed?: readonly Consent[]): Consent;
/**
 * Wait until `ready()` is true, checking at each pulse; TimeoutError naming `what` after `timeout` ms.
 *
 * @param {() => unknown} ready
 * @param {Pulse} pulse
 * @param {number} timeout
 * @param {string} what
 * @returns {Promise<void>}
 */
export function waitUntil(ready: () => unknown, pulse: Pulse, timeout: number, what: string): Promise<void>;
/**
 * The origin of `url` as `location.origin` spells it; "null" for a document with no network URL.
 *
 * @param {string} url
 * @returns {string}
 */
export function originOf(url: string): string;
/**
 * The origin of the document in the frame that called a binding, as a wallet learns it from the
 * browser: never from a message, since any script or frame of the page can name any origin.
 *
 * @param {{ frame: { url(): string } }} source the first argument of an exposeBinding callback
 * @returns {string}
 */
export function frameOrigin(source: {
    frame: {
        url(): string;
    };
}): string;
/**
 * What the JavaScript test-wallet drivers share (aiwallet-driver.js, byoa-driver.js), in the
 * vocabulary of the Python drivers (testwallet/_driver.py): `install(target)`, `waitUntil(predicate,
 * { timeout })` with a TimeoutError naming what did not happen, `check()` raising the ScriptError
 * of a script the page could not have met. Node only: it runs in the test, never in the page.
 */
/**
 * What the visitor does in a wallet's consent window, in both drivers (testwallet/_driver.py's
 * Consent): allow; decline; close it without choosing (the page gets what a decline gets); wait,
 * leaving it open (BYOA: the page gets null after 120 s on its clock).
 * @typedef {'allow' | 'decline' | 'close' | 'wait'} Consent
 */
/** @type {readonly Consent[]} */
export const CONSENTS: readonly Consent[];
/** How long a wait of a driver lasts by default, in milliseconds. */
export const DEFAULT_TIMEOUT_MS: 5000;
/** Raised when the test's script of a wallet asks for something the page could not have met. */
export class ScriptError extends Error {
    /** @param {string} message */
    constructor(message: string);
}
/** Raised when a wait of a driver ends before what it waits for happened. */
export class TimeoutError extends Error {
    /** @param {string} message */
    constructor(message: string);
}
/** A wake-up call for the waits of a driver: `wake()` settles the promise `next()` returned. */
export class Pulse {
    /** Wake every wait; the next ones wait for the next wake. */
    wake(): void;
    /** @returns {Promise<void>} settled at the next wake */
    next(): Promise<void>;
    #private;
}
/**
 * What the visitor does in a wallet's consent window, in both drivers (testwallet/_driver.py's
 * Consent): allow; decline; close it without choosing (the page gets what a decline gets); wait,
 * leaving it open (BYOA: the page gets null after 120 s on its clock).
 */
export type Consent = "allow" | "decline" | "close" | "wait";
/**
 * A Playwright Page or BrowserContext: what a driver installs its stub into.
 */
export type Target = {
    exposeBinding(name: string, callback: (source: any, ...args: any[]) => any): Promise<unknown>;
    addInitScript(script: {
        path: string;
    }): Promise<unknown>;
};
