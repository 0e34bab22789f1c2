// @ts-check
/**
 * `AiConnect` (specs/aiconnect-core.md, "AiConnect", "ConnectionState"): finds the wallet, then
 * keeps one state, moved by the wallet's answers and link notices, and hands out the session
 * that chats. `fetch` loads the SDK translators on first use: a page that only chats skips them.
 */

/** @typedef {import('./types.js').ConnectionState} ConnectionState */
/** @typedef {import('./types.js').WalletLink} WalletLink */
/** @typedef {import('./types.js').WalletProvider} WalletProvider */

/** @param {unknown} error */
function reportListenerError(error) {
  if (typeof globalThis.reportError === 'function') globalThis.reportError(error);
  else queueMicrotask(() => { throw error; });
}

/** The AI Wallet page, where a visitor without the wallet gets it. */
export const INSTALL_URL = 'https://tensorpass.app/wallet';

/**
 * The site's connection to the visitor's AI, through AI Wallet. Built where `window` does not
 * exist (a server render), it does nothing and stays `checking`.
 */
export class AiConnect {
  /** Where a visitor without the wallet gets it. */
  installUrl = INSTALL_URL;

  /** @type {ConnectionState} The current state. */
  state = { status: 'checking' };

  /** @type {Set<import('./types.js').Listener>} */
  #listeners = new Set();
  /** @type {WalletProvider | null} */
  #wallet = null;
  /** @type {Promise<void>} discovery and the first status check */
  #started;
  /**
   * @type {unknown} The wallet's refusal of the status check on load (such as 410 after an
   * update), for `fetch` to answer with; a refused `connect()` leaves the site not connected.
   */
  #refusal = null;
  #inBrowser = typeof window !== 'undefined';

  /** @type {import('./types.js').WalletFetch} An own property: it needs no `this`. */
  fetch = async (input, init) => {
    const { walletFetch } = await import('./fetch/walletfetch.js');
    return walletFetch(async () => {
      const state = await this.#settledState();
      return state && { state, refusal: state.status === 'error' ? this.#refusal : null };
    }, input, init);
  };

  /** @type {import('./types.js').SdkOptions} For the OpenAI and Anthropic SDKs. */
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
      // Declined, locked, no account: the site is not connected, and `fetch` answers 401 as
      // the spec says ("WalletFetch": "A site that is not connected gets a 401").
      this.#fail(error, null);
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
      // the visitor needs that message, so it becomes the `error` state and `fetch`'s answer.
      this.#fail(error, error);
    }
  }

  /**
   * @param {unknown} error The wallet's refusal of `status` or `connect`.
   * @param {unknown} refusal What `fetch` answers with instead of its 401, or `null`.
   */
  #fail(error, refusal) {
    this.#refusal = refusal;
    this.#set({ status: 'error', message: messageOf(error) });
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
    for (const listener of [...this.#listeners]) {
      // A page's listener that throws must not change the connection's outcome or silence the
      // other listeners; its error is reported as an uncaught one, as EventTarget does.
      try {
        listener(state);
      } catch (error) {
        reportListenerError(error);
      }
    }
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

/**
 * Return the `ProviderSession` of a connected site: one `chat` request per call
 * (aiconnect-core.md, "Session types").
 *
 * @param {WalletProvider} wallet
 * @param {string} model The account's default model, or '' with Auto.
 * @returns {import('./types.js').ProviderSession}
 */
function walletSession(wallet, model) {
  return { providerId: 'aiwallet', model, chat: (request) => chat(wallet, request) };
}

/**
 * @param {WalletProvider} wallet
 * @param {import('./types.js').ChatRequest} request
 * @returns {Promise<import('./types.js').ChatResponse>}
 */
function chat(wallet, { messages, tools, options, signal, onStart, onText }) {
  return new Promise((resolve, reject) => {
    // The wallet rejects with the signal's reason on abort (wallet-provider.md, "The provider
    // object"); settling here too keeps that promise with any wallet, and drops late events.
    let settled = false;
    const onAbort = () => settle(() => reject(signal?.reason));
    /** @param {() => void} action */
    const settle = (action) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      action();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);

    /** @type {import('./types.js').WalletChatParams} */
    const params = { messages };
    if (tools) params.tools = tools;
    if (options) params.options = options;
    /** @param {import('./types.js').ChatEvent} event */
    const onEvent = (event) => {
      if (settled) return;
      if (event.kind === 'start') onStart?.({ providerName: event.providerName, model: event.model });
      else if (event.kind === 'text') onText?.(event.delta);
    };
    wallet.request('chat', params, onEvent, signal).then(
      (result) => settle(() => resolve(/** @type {any} */ (result))),
      (error) => settle(() => reject(error)),
    );
  });
}

/** How long to wait for an `aiwallet:announce` before concluding there is no wallet. */
export const DISCOVERY_TIMEOUT_MS = 300;

/**
 * Return the wallet of `win`, or `null` when none announces itself within 300 ms
 * (wallet-provider.md, "How the SDK finds the wallet").
 *
 * @param {Window & { aiwallet?: unknown }} win The page's window (a test may pass its own).
 * @returns {Promise<WalletProvider | null>}
 */
export function findWallet(win) {
  if (isWallet(win.aiwallet)) return Promise.resolve(win.aiwallet);
  return new Promise((resolve) => {
    /** @param {WalletProvider | null} wallet */
    const finish = (wallet) => {
      clearTimeout(timer);
      win.removeEventListener('aiwallet:announce', onAnnounce);
      resolve(wallet);
    };
    /** @param {Event} event */
    const onAnnounce = (event) => {
      const detail = /** @type {CustomEvent} */ (event).detail;
      // The isAIWallet check of window.aiwallet applies to an announce's detail too.
      if (isWallet(detail)) finish(detail);
    };
    win.addEventListener('aiwallet:announce', onAnnounce);
    const timer = setTimeout(finish, DISCOVERY_TIMEOUT_MS, null);
    win.dispatchEvent(new Event('aiwallet:request'));
  });
}

/**
 * @param {unknown} candidate
 * @returns {candidate is WalletProvider}
 */
function isWallet(candidate) {
  return typeof candidate === 'object' && candidate !== null
    && /** @type {{ isAIWallet?: unknown }} */ (candidate).isAIWallet === true;
}
