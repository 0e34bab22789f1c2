// @ts-check
/**
 * The direct link, for a visitor without the extension (specs/byoa-sites.md, "Without the
 * extension"): get a code and a link from the site, open the link, ask the site whether the
 * wallet came. The page learns 'connected' or 'not-connected': a decline looks like no wallet.
 * Why a link did not connect is for the developer (./link-failure.js): `onFailure` gets the
 * reason, and the console says what to fix when the site refused the code (403 CSRF, 429, 500
 * endpoint-refused). No code or link ever leaves this module but through `open` and `onLink`.
 */

import { csrfToken } from './csrf.js';
import { codeFailure, failure, logFailure } from './link-failure.js';

// Kept here too: pages written before ./csrf.js import it from this module.
export { csrfToken };

/**
 * Open a link to the visitor's wallet and wait until it connects to the site, or not. Call it
 * from a click handler: a browser starts an app only after a click. Never rejects.
 *
 * @param {import('./types.js').LinkOptions} [options]
 * @returns {Promise<'connected' | 'not-connected'>}
 */
export async function startLink({
  manifest, codeUrl = '/byoa/code', waitUrl = '/byoa/wait', disconnectUrl = '/byoa/disconnect', seconds = 90,
  pollMs = 1000, signal, open = (link) => location.assign(link), onLink, onTick, onConnected, onFailure,
  fetch = globalThis.fetch,
} = {}) {
  /** @param {import('./types.js').LinkFailure} failed */
  const fail = (failed) => {
    logFailure(failed);
    guarded(onFailure, failed);
    return /** @type {const} */ ('not-connected');
  };
  // One controller ends all in flight: the page's signal, the deadline, or the outcome.
  const stop = new AbortController();
  const quit = () => stop.abort();
  if (signal?.aborted) return fail(failure('aborted'));
  signal?.addEventListener('abort', quit);
  /** @type {any} */
  let ticker;
  /** @type {any} */
  let deadline;
  /** @param {string} url @param {RequestInit} [init] */
  const json = (url, init) => fetch(url, { credentials: 'same-origin', cache: 'no-store', signal: stop.signal, ...init })
    .then((r) => (r.ok ? r.json() : null)).catch(() => null);
  try {
    const token = csrfToken();
    const response = await fetch(codeUrl, {
      credentials: 'same-origin', cache: 'no-store', signal: stop.signal, method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token && { 'X-CSRFToken': token }) },
      body: JSON.stringify(manifest ? { manifest } : {}),
    }).catch(() => null);
    const body = response ? await response.json().catch(() => null) : null;
    const { session, link } = (response?.ok && body) || {};
    // Only a wallet link is opened, whatever else an answer holds; and nothing after an abort.
    const valid = typeof session === 'string' && session && typeof link === 'string' && link.startsWith('bringyourownagent://');
    if (stop.signal.aborted) return fail(failure('aborted'));
    if (!valid) return fail(codeFailure(response, body));
    guarded(open, link);
    guarded(onLink, link);
    const until = Date.now() + seconds * 1000;
    const tick = () => guarded(onTick, Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    tick();
    ticker = setInterval(tick, 1000);
    deadline = setTimeout(quit, seconds * 1000);
    const url = `${waitUrl}${waitUrl.includes('?') ? '&' : '?'}session=${encodeURIComponent(session)}`;
    while (!stop.signal.aborted) {
      await new Promise((wake) => {
        const done = () => { clearTimeout(timer); stop.signal.removeEventListener('abort', done); wake(null); };
        const timer = setTimeout(done, pollMs);
        stop.signal.addEventListener('abort', done);
      });
      // A failed poll (network, 500) says nothing: keep waiting until the deadline.
      const answer = stop.signal.aborted ? null : await json(url);
      if (answer?.state === 'connected') {
        // The wallet's own name (untrusted text: the page shows it with textContent), and the way to end it.
        const wallet = typeof answer.wallet === 'string' ? answer.wallet.slice(0, 100) : '';
        guarded(onConnected, { wallet, disconnect: () => endLink(disconnectUrl, session, fetch) });
        return 'connected';
      }
      if (answer?.state === 'expired') return fail(failure('expired'));
    }
    return fail(failure(signal?.aborted ? 'aborted' : 'timeout'));
  } finally {
    clearTimeout(deadline);
    clearInterval(ticker);
    signal?.removeEventListener('abort', quit);
    quit();
  }
}

/**
 * Ask the site to end the pairing this page's link opened (revoked, its connection closed).
 *
 * @param {string} disconnectUrl
 * @param {string} session the link's wait handle, never shown
 * @param {typeof fetch} fetch
 * @returns {Promise<boolean>} whether the site ended it
 */
async function endLink(disconnectUrl, session, fetch) {
  const token = csrfToken();
  try {
    const response = await fetch(disconnectUrl, {
      method: 'POST', credentials: 'same-origin', cache: 'no-store',
      headers: { 'Content-Type': 'application/json', ...(token && { 'X-CSRFToken': token }) },
      body: JSON.stringify({ session }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Show which wallet a link connected, with a button that disconnects it: after a link someone
 * else's page may have made the visitor open, the visitor sees what connected and can end it.
 * The name is the wallet's own words, shown as text.
 *
 * @param {HTMLElement} element where to show it (emptied first)
 * @param {import('./types.js').LinkedWallet} linked what `onConnected` received
 * @param {{ onDisconnected?: () => void }} [options]
 */
export function showLinkedWallet(element, linked, { onDisconnected } = {}) {
  const doc = element.ownerDocument;
  const name = doc.createElement('strong');
  name.className = 'linked-wallet-name';
  name.textContent = linked.wallet || 'a wallet that gave no name';
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'linked-wallet-disconnect';
  button.textContent = 'Disconnect it';
  const said = doc.createElement('span');
  said.setAttribute('role', 'status');
  element.replaceChildren(doc.createTextNode('Connected: '), name, doc.createTextNode(' '), button, said);
  element.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    if (await linked.disconnect()) {
      element.replaceChildren(doc.createTextNode('Disconnected: '), name, doc.createTextNode('. It can no longer be called from this page.'));
      guarded(onDisconnected, undefined);
    } else {
      said.textContent = ' Could not disconnect it; try again.';
      button.disabled = false;
    }
  });
}

/**
 * Call a page's callback; one that throws is reported and changes no outcome.
 *
 * @template T
 * @param {((value: T) => void) | undefined} callback
 * @param {T} value
 */
function guarded(callback, value) {
  try { callback?.(value); } catch (error) { globalThis.reportError?.(error); }
}
