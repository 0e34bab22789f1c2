/** The Playwright binding through which byoa.js asks the test. */
export const BINDING: "__testwalletByoa";
/**
 * The test wallet's panel, the stub's clip reading, its skill table, its manifest rules, what its
 * consent shows, its checks of a call and the stub, to add as init scripts in this order.
 */
export const SCRIPT_PATHS: string[];
/**
 * The skill table (testwallet/skills.json): each skill the stub serves, with its input, params,
 * output and default answer, as byoa.js and testwallet/extension.py read it.
 * @type {Record<string, { input: string, params: Record<string, string>, output: Record<string, string>, default: string }>}
 */
export const SKILLS: Record<string, {
    input: string;
    params: Record<string, string>;
    output: Record<string, string>;
    default: string;
}>;
/** A scripted output that makes the call fail (the page gets `{ ok: false }`). */
export const FAILED: Readonly<{
    failed: true;
}>;
/**
 * @typedef {Record<string, unknown> | typeof FAILED} Output e.g. `{ text: 'Peru' }`, or FAILED
 * @typedef {object} RequestRecord One `window.byoa.request(manifest)`.
 * @property {string} origin
 * @property {boolean} activated called with user activation (a click)
 * @property {unknown} manifest
 * @property {boolean} valid
 * @property {unknown[]} errors the manifest's errors
 * @property {string} decision allow, decline, block, no-answer, quiet
 * @property {boolean} onItsOwn answered by "decide on my own", with no window
 * @property {string[] | null} more what the window showed as more than was allowed (null: all of it)
 * @property {unknown} grant what the page got (null for every "no")
 * @property {string} reason "granted", or why the page got null
 * @property {boolean} done
 * @typedef {object} CallRecord One `window.byoa.call(grantId, skill, input, params)`.
 * @property {string} origin
 * @property {unknown} grantId
 * @property {string} skill
 * @property {any} summary measured by the stub
 * @property {any} params
 * @property {any} input null for a call the stub refused
 * @property {string | null} refused why the stub refused it without asking a model
 * @property {boolean | null} ok what the page got
 * @property {unknown} output
 * @property {boolean} done
 */
/** The visitor and the models behind one test's `window.byoa`. */
export class ByoaExtension {
    /** @type {RequestRecord[]} */
    requests: RequestRecord[];
    /** @type {CallRecord[]} */
    calls: CallRecord[];
    /** @type {unknown[]} the released grant ids */
    releases: unknown[];
    /** @type {string[]} scripted answers the driver could not use */
    problems: string[];
    /**
     * What the visitor allowed each site and paused, shared by the wallet's two ways in: `save` it
     * for the headless wallet's `--consents FILE`, or set it to one `Consents.load` read.
     * @type {Consents}
     */
    consents: Consents;
    /**
     * Give a Page or BrowserContext `window.byoa`, before its scripts run.
     *
     * @param {import('./driver.js').Target} target
     */
    install(target: import("./driver.js").Target): Promise<void>;
    set consent(choice: import("./driver.js").Consent);
    /**
     * What the visitor does in the consent window: 'allow' (the default), 'decline', 'close' (as a
     * decline) or 'wait' (no answer: null after 120 s on the page's clock).
     */
    get consent(): import("./driver.js").Consent;
    /**
     * Answer the consent window with Allow, ticking `skills` (all offered when omitted), and
     * "decide on my own" when `decideOnMyOwn`.
     *
     * @param {{ skills?: string[], decideOnMyOwn?: boolean }} [options]
     */
    allow({ skills, decideOnMyOwn }?: {
        skills?: string[];
        decideOnMyOwn?: boolean;
    }): void;
    /**
     * Let the wallet decide on its own for the site (or stop): requests are granted with no window
     * and no click.
     *
     * @param {boolean} [on]
     */
    decideOnMyOwn(on?: boolean): void;
    /** Answer the consent window with Decline: the page gets null. */
    decline(): void;
    /** Leave the consent window open: the page gets null when 120 s have passed on its clock. */
    noAnswer(): void;
    /**
     * Pause the site at `origin` as the visitor does in the wallet: its requests get null and its
     * calls `{ ok: false }` until `resume(origin)` (specs/byoa-sites.md: "A site the visitor paused
     * is not reconnected").
     *
     * @param {string} origin such as 'http://127.0.0.1:8000'
     */
    pause(origin: string): void;
    /**
     * Resume the site at `origin`.
     *
     * @param {string} origin
     */
    resume(origin: string): void;
    /**
     * Queue outputs for the next calls of `skill`; FAILED makes one call fail.
     *
     * @param {string} skill
     * @param {...Output} outputs
     */
    reply(skill: string, ...outputs: Output[]): void;
    /**
     * Make every later call of `skill` fail (the page gets `{ ok: false }`), or stop doing so.
     *
     * @param {string} skill
     * @param {boolean} [failing]
     */
    failCalls(skill: string, failing?: boolean): void;
    /**
     * Wait until `predicate(extension)` is true, such as `(ext) => ext.calls.length === 2`.
     *
     * @param {(extension: ByoaExtension) => unknown} predicate
     * @param {{ timeout?: number }} [options] in milliseconds
     */
    waitUntil(predicate: (extension: ByoaExtension) => unknown, { timeout }?: {
        timeout?: number;
    }): Promise<void>;
    /** Throw a ScriptError if a scripted answer could not be used during the test. */
    check(): void;
    #private;
}
/**
 * e.g. `{ text: 'Peru' }`, or FAILED
 */
export type Output = Record<string, unknown> | typeof FAILED;
/**
 * One `window.byoa.request(manifest)`.
 */
export type RequestRecord = {
    origin: string;
    /**
     * called with user activation (a click)
     */
    activated: boolean;
    manifest: unknown;
    valid: boolean;
    /**
     * the manifest's errors
     */
    errors: unknown[];
    /**
     * allow, decline, block, no-answer, quiet
     */
    decision: string;
    /**
     * answered by "decide on my own", with no window
     */
    onItsOwn: boolean;
    /**
     * what the window showed as more than was allowed (null: all of it)
     */
    more: string[] | null;
    /**
     * what the page got (null for every "no")
     */
    grant: unknown;
    /**
     * "granted", or why the page got null
     */
    reason: string;
    done: boolean;
};
/**
 * One `window.byoa.call(grantId, skill, input, params)`.
 */
export type CallRecord = {
    origin: string;
    grantId: unknown;
    skill: string;
    /**
     * measured by the stub
     */
    summary: any;
    params: any;
    /**
     * null for a call the stub refused
     */
    input: any;
    /**
     * why the stub refused it without asking a model
     */
    refused: string | null;
    /**
     * what the page got
     */
    ok: boolean | null;
    output: unknown;
    done: boolean;
};
import { Consents } from './consents.js';
