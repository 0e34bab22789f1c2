/**
 * Own mode: no model at all. It is always there and always ready, and it is where every other
 * way's "no" lands; its `generate` answers `null`, so the page plays by its own rules.
 */
/** @typedef {import('./types.js').Way} Way */
/**
 * Return the own-mode way; `label` names it on the page.
 *
 * @param {{ label?: string }} [options]
 * @returns {Way}
 */
export function ownWay({ label }?: {
    label?: string;
}): Way;
export type Way = import("./types.js").Way;
