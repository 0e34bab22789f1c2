/** Find `window.byoa`, the BYOA extension's provider (specs/byoa-sites.md, "window.byoa"). */
/**
 * Resolve with `window.byoa`, or the one a `byoa:ready` event brings within `wait` ms, else null
 * (no extension, or no `window` as in node): then the page goes its own way.
 *
 * @param {{ wait?: number }} [options]
 * @returns {Promise<import('./types.js').ByoaProvider | null>}
 */
export function findByoa({ wait }?: {
    wait?: number;
}): Promise<import("./types.js").ByoaProvider | null>;
