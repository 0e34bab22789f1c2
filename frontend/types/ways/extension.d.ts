/** @typedef {import('./types.js').Way} Way */
/**
 * Return the extension way for a site whose manifest is `manifest` (the object, as shipped).
 *
 * @param {{ manifest: object, find?: () => Promise<any> }} options `find` discovers the
 *   provider (default: `findByoa()`, `window.byoa` or a `byoa:ready` event within 300 ms).
 * @returns {Way}
 */
export function extensionWay({ manifest, find }: {
    manifest: object;
    find?: () => Promise<any>;
}): Way;
export type Way = import("./types.js").Way;
