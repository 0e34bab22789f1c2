/**
 * The extension's way in (specs/byoa-sites.md, "With the extension"). `null` from `request` and
 * `{ ok: false }` from `call` are the only "no"; a throw or a malformed answer becomes that "no",
 * so the page has one branch for all of them: its own way.
 */
/** @typedef {import('./types.js').ByoaProvider} ByoaProvider */
/**
 * Ask the wallet for a grant; resolve with it, or null for any "no". Call it from a click
 * handler: without one the wallet shows nothing and answers null.
 *
 * @param {ByoaProvider} provider `window.byoa`, from `findByoa`.
 * @param {object} manifest The site's manifest object.
 * @returns {Promise<import('./types.js').Grant | null>}
 */
export function requestGrant(provider: ByoaProvider, manifest: object): Promise<import("./types.js").Grant | null>;
/**
 * Call a skill under a grant; resolve with `{ ok: true, output, receipt? }` or `{ ok: false }`,
 * never reject. `output` is user input: show it as text, never as HTML.
 *
 * @param {ByoaProvider} provider
 * @param {string} grantId
 * @param {string} skill e.g. 'audio.transcribe'
 * @param {unknown} input e.g. `{ audio: { mime: 'audio/wav', base64 } }`
 * @param {unknown} [params] e.g. `{ language: 'sk' }`
 * @returns {Promise<import('./types.js').CallResult>}
 */
export function callSkill(provider: ByoaProvider, grantId: string, skill: string, input: unknown, params?: unknown): Promise<import("./types.js").CallResult>;
/**
 * Release the grant when the visitor leaves the page; return a function that cancels this.
 *
 * @param {ByoaProvider} provider
 * @param {string} grantId
 * @returns {() => void}
 */
export function releaseOnPageHide(provider: ByoaProvider, grantId: string): () => void;
export type ByoaProvider = import("./types.js").ByoaProvider;
