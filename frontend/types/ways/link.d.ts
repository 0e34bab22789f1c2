/**
 * The BYOA direct link way (specs/byoa-sites.md, "Without the extension"): after a click the
 * visitor's wallet connects to the site's server, and the server calls it. The page never talks
 * to the wallet, so it supplies the two functions that talk to its own server: `pair` (the link
 * flow, e.g. `startLink` of frontend/byoa/link.js, then the granted models) and `generate` (ask
 * the server, e.g. over server-sent events). The way is offered in every browser: the wallet is
 * an app, which the page cannot detect before the visitor tries.
 */
/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').GenerateRequest} GenerateRequest */
/** @typedef {import('./types.js').Generated} Generated */
/** @typedef {import('./types.js').ConnectOptions} ConnectOptions */
/**
 * @typedef {object} LinkServer What the page's server does for the link way.
 * @property {(options: ConnectOptions) => Promise<{ models: string[] } | null>} pair From a click:
 *   open the link, wait for the wallet; the granted model codes, or `null` when it did not connect.
 * @property {(request: GenerateRequest & { model?: string }) => Promise<Generated | null>} generate
 *   The server calls the wallet; `null` when it could not (no wallet, a failed or timed-out call).
 * @property {() => Promise<{ models: string[] } | null>} [paired] Whether this browser session is
 *   already paired (after a reload), checked once when the page starts.
 * @property {boolean} [streams] Whether `generate` streams to `onText` (default true).
 */
/**
 * Return the direct link way over `server`.
 *
 * @param {LinkServer} server
 * @returns {Way}
 */
export function linkWay(server: LinkServer): Way;
export type Way = import("./types.js").Way;
export type GenerateRequest = import("./types.js").GenerateRequest;
export type Generated = import("./types.js").Generated;
export type ConnectOptions = import("./types.js").ConnectOptions;
/**
 * What the page's server does for the link way.
 */
export type LinkServer = {
    /**
     * From a click:
     * open the link, wait for the wallet; the granted model codes, or `null` when it did not connect.
     */
    pair: (options: ConnectOptions) => Promise<{
        models: string[];
    } | null>;
    /**
     *   The server calls the wallet; `null` when it could not (no wallet, a failed or timed-out call).
     */
    generate: (request: GenerateRequest & {
        model?: string;
    }) => Promise<Generated | null>;
    /**
     * Whether this browser session is
     * already paired (after a reload), checked once when the page starts.
     */
    paired?: (() => Promise<{
        models: string[];
    } | null>) | undefined;
    /**
     * Whether `generate` streams to `onText` (default true).
     */
    streams?: boolean | undefined;
};
