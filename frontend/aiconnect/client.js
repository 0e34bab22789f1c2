// @ts-check
/**
 * `AiConnect` (specs/aiconnect-core.md, "AiConnect", "ConnectionState"): one state, moved by the
 * wallet's answers and by its link notices. `fetch` loads the SDK translators on first use, so a
 * page that only chats pays nothing for them.
 */

import { findWallet } from './discovery.js';
import { walletSession } from './session.js';

/** @typedef {import('./types.js').ConnectionState} ConnectionState */
/** @typedef {import('./types.js').WalletLink} WalletLink */
/** @typedef {import('./types.js').WalletProvider} WalletProvider */

/** The AI Wallet page, where a visitor without the wallet gets it. */
export const INSTALL_URL = 'https://tensorpass.app/wallet';

/**
 * The site's connection to the visitor's AI, through AI Wallet. Built where `window` does not
 * exist (a server render), it does nothing and stays `checking`.
 */
export class AiConnect {
  installUrl = INSTALL_URL;

  /** @type {ConnectionState} */
  state = { status: 'checking' };

  /** @type {Set<import('./types.js').Listener>} */
  #listeners = new Set();
  /** @type {WalletProvider | null} */
  #wallet = null;
  /** @type {Promise<void>} discovery and the first status check */
  #started;
  #inBrowser = typeof window !== 'undefined';

  /** @type {import('./types.js').WalletFetch} An own property: it needs no `this`. */
  fetch = async (input, init) => {
    const { walletFetch } = await import('./fetch/walletfetch.js');
    return walletFetch(() => this.#settledState(), input, init);
  };

  /** @type {import('./types.js').SdkOptions} */
  sdkOptions = { apiKey: 'aiwallet', fetch: this.fetch, dangerouslyAllowBrowser: true };

  constructor() {
    this.#started = this.#inBrowser ? this.#start(window) : Promise.resolve();
  }

  /**
   * Call `listener` with each new state (not the current one); return a function that removes it.
   *
   * @param {import('./types.js').Listener} listener
   * @returns {() => void}
   */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Ask the wallet to let this site use the visitor's AI; resolve whatever the outcome.
   *
   * @returns {Promise<void>}
   */
  async connect() {
    await this.#started;
    if (!this.#inBrowser) return;
    const wallet = this.#wallet;
    if (!wallet) return this.#set({ status: 'noWallet' });
    this.#set({ status: 'connecting' });
    try {
      this.#applyLink(/** @type {WalletLink} */ (await wallet.request('connect')), true);
    } catch (error) {
      this.#set({ status: 'error', message: messageOf(error) });
    }
  }

  /**
   * Ask the wallet to forget this site, then become `disconnected`; reject when it refuses.
   *
   * @returns {Promise<void>}
   */
  async disconnect() {
    await this.#started;
    if (!this.#inBrowser) return;
    const wallet = this.#wallet;
    if (!wallet) return this.#set({ status: 'noWallet' });
    await wallet.request('disconnect');
    this.#set({ status: 'disconnected' });
  }

  /** @param {Window} win */
  async #start(win) {
    const wallet = await findWallet(win);
    this.#wallet = wallet;
    if (!wallet) return this.#set({ status: 'noWallet' });
    wallet.onLink((link) => this.#applyLink(link, false));
    try {
      this.#applyLink(/** @type {WalletLink} */ (await wallet.request('status')), true);
    } catch (error) {
      // Such as 410 after a wallet update (wallet-provider.md, "After a wallet update"):
      // the visitor needs that message, so it becomes the `error` state.
      this.#set({ status: 'error', message: messageOf(error) });
    }
  }

  /**
   * @param {WalletLink} link
   * @param {boolean} answer Whether it answers our request, rather than being a notice.
   */
  #applyLink(link, answer) {
    const wallet = /** @type {WalletProvider} */ (this.#wallet);
    if (!link.connected) {
      // Such a notice does not end the visitor's pending approval: the `connect` answer will.
      if (!answer && this.state.status === 'connecting') return;
      return this.#set({ status: 'disconnected' });
    }
    const { providerName, model } = link;
    /** @type {ConnectionState} */
    const next = { status: 'connected', providerName, session: walletSession(wallet, model ?? '') };
    if (model !== undefined) next.model = model;
    this.#set(next);
  }

  /**
   * Move to `state` unless it repeats the current one: "a notice can repeat the link a page
   * already holds" (wallet-provider.md, "Link notices").
   *
   * @param {ConnectionState} state
   */
  #set(state) {
    const { session: _next, ...next } = /** @type {any} */ (state);
    const { session: _current, ...current } = /** @type {any} */ (this.state);
    if (JSON.stringify(next) === JSON.stringify(current)) return;
    this.state = state;
    for (const listener of [...this.#listeners]) listener(state);
  }

  /**
   * The state once the status check and any `connect()` have ended; `null` outside a browser.
   *
   * @returns {Promise<ConnectionState | null>}
   */
  async #settledState() {
    await this.#started;
    if (!this.#inBrowser) return null;
    while (this.state.status === 'connecting') {
      await new Promise((resolve) => {
        const stop = this.subscribe(() => { stop(); resolve(undefined); });
      });
    }
    return this.state;
  }
}

/** @param {any} error */
const messageOf = (error) => String(error?.message ?? error);
