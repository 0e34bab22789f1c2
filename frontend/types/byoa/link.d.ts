/**
 * Open a link to the visitor's wallet and wait until it connects to the site, or not. Call it
 * from a click handler: a browser starts an app only after a click. Never rejects.
 *
 * @param {import('./types.js').LinkOptions} [options]
 * @returns {Promise<'connected' | 'not-connected'>}
 */
export function startLink({ manifest, codeUrl, waitUrl, disconnectUrl, seconds, pollMs, signal, open, onLink, onTick, onConnected, onFailure, fetch, }?: import("./types.js").LinkOptions): Promise<"connected" | "not-connected">;
/**
 * Show which wallet a link connected, with a button that disconnects it: after a link someone
 * else's page may have made the visitor open, the visitor sees what connected and can end it.
 * The name is the wallet's own words, shown as text.
 *
 * @param {HTMLElement} element where to show it (emptied first)
 * @param {import('./types.js').LinkedWallet} linked what `onConnected` received
 * @param {{ onDisconnected?: () => void }} [options]
 */
export function showLinkedWallet(element: HTMLElement, linked: import("./types.js").LinkedWallet, { onDisconnected }?: {
    onDisconnected?: () => void;
}): void;
export { csrfToken };
import { csrfToken } from './csrf.js';
