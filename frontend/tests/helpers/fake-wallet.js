// @ts-check
/**
 * A fake `window.aiwallet` and a fake `window` for tests of pages and libraries that use
 * AI Wallet (specs/wallet-provider.md). Reusable: nothing here knows about @aiconnect/core.
 *
 * The wallet answers `status`, `connect`, `disconnect` and `chat` the way the spec says, from a
 * link and a queue of scripted chat answers the test controls, and records every request.
 * Its errors are its own `WalletRequestError` copy, as AI Wallet's are, so a library under test
 * must recognise them by `name` and `status`, not `instanceof`.
 *
 *     const wallet = createFakeWallet({ link: { connected: true, providerName: 'Test', model: 'm' } });
 *     wallet.queueChat({ text: ['Hel', 'lo'], usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 0 } });
 *     const restore = installWindow(createFakeWindow({ aiwallet: wallet }));
 */

/** The wallet's own copy of the error class (wallet-provider.md, "Errors"). */
export class FakeWalletError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message);
    this.name = 'WalletRequestError';
    this.status = status;
  }
}

/**
 * @typedef {object} ChatScript
 * How the fake wallet answers one `chat`. Every field is optional.
 * @property {string} [providerName] The `start` event's account name ('Test').
 * @property {string} [model] The `start` event's model ('test-model').
 * @property {string} [resultModel] The result's model, as the provider names it (`model`).
 * @property {string | string[]} [text] The answer's text, streamed piece by piece.
 * @property {{ id: string, name: string, arguments: Record<string, unknown> }[]} [toolCalls]
 * @property {'stop' | 'length' | 'toolCalls' | 'contentFilter'} [finishReason]
 * @property {{ inputTokens: number, outputTokens: number, cachedInputTokens: number } | null} [usage]
 * @property {{ status: number, message: string }} [error] Fail, after the text if there is any.
 * @property {boolean} [noStart] Send no `start` event (a broken wallet).
 * @property {boolean} [hang] After the text, never settle: wait for the page to abort.
 */

/**
 * @typedef {{ method: string, params: any, signal?: AbortSignal }} RecordedRequest
 */

/**
 * Return a fake wallet provider with test controls.
 *
 * @param {{ link?: any, connectResult?: any, connectError?: { status: number, message: string } }} [setup]
 */
export function createFakeWallet(setup = {}) {
  /** @type {Set<(link: any) => void>} */
  const listeners = new Set();
  /** @type {(ChatScript | ((params: any, onEvent: (e: any) => void, signal?: AbortSignal) => Promise<any>))[]} */
  const chats = [];
  /** @type {Map<string, { status: number, message: string }>} */
  const failures = new Map();
  /** @type {RecordedRequest[]} */
  const requests = [];
  const events = new EventTarget();
  /** @type {{ promise: Promise<any> } | null} */
  let pendingConnect = null;

  const wallet = {
    isAIWallet: /** @type {true} */ (true),
    name: 'Fake Wallet',
    /** The link `status` answers with; `connect` answers with `connectResult` or this. */
    link: setup.link ?? { connected: false },
    connectResult: setup.connectResult,
    requests,
    /**
     * @param {string} method
     * @param {any} [params]
     * @param {(event: any) => void} [onEvent]
     * @param {AbortSignal} [signal]
     * @returns {Promise<unknown>}
     */
    request(method, params, onEvent, signal) {
      requests.push({ method, params, signal });
      events.dispatchEvent(new CustomEvent('request', { detail: method }));
      if (signal?.aborted) return Promise.reject(signal.reason);
      const failure = failures.get(method);
      if (failure) {
        failures.delete(method);
        return Promise.reject(new FakeWalletError(failure.message, failure.status));
      }
      const work = answer(method, params, onEvent ?? (() => {}), signal);
      if (!signal) return work;
      // "Aborting signal rejects the request at once with the signal's reason" (The provider object).
      return new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        work.then(resolve, reject);
      });
    },
    /** @param {(link: any) => void} listener */
    onLink(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /**
     * Send a link notice to the page (and make it the link `status` answers with).
     * @param {any} link
     */
    notify(link) {
      wallet.link = link;
      for (const listener of [...listeners]) listener(link);
    },
    /** @returns {number} How many link listeners the page holds. */
    listenerCount: () => listeners.size,
    /**
     * Answer the next `chat` with this script, or with this function.
     * @param {ChatScript | ((params: any, onEvent: (e: any) => void, signal?: AbortSignal) => Promise<any>)} script
     */
    queueChat(script) {
      chats.push(script);
      return wallet;
    },
    /**
     * Fail the next request of `method` with the wallet's error.
     * @param {string} method
     * @param {number} status
     * @param {string} message
     */
    failNext(method, status, message) {
      failures.set(method, { status, message });
      return wallet;
    },
    /**
     * Hold the next `connect` until the test settles it, as the approval window does.
     * @returns {{ approve: (link?: any) => void, decline: (message?: string, status?: number) => void }}
     */
    holdConnect() {
      /** @type {{ promise: Promise<any>, resolve: (value: any) => void, reject: (error: any) => void }} */
      const deferred = /** @type {any} */ ({});
      deferred.promise = new Promise((resolve, reject) => Object.assign(deferred, { resolve, reject }));
      pendingConnect = deferred;
      return {
        approve: (link = wallet.connectResult ?? wallet.link) => {
          wallet.link = link;
          deferred.resolve(link);
        },
        decline: (message = 'The connection was declined', status = 403) => {
          deferred.reject(new FakeWalletError(message, status));
        },
      };
    },
    /**
     * Resolve when the wallet receives a request of `method` (already received ones count).
     * @param {string} method
     * @param {number} [count] How many such requests to wait for.
     * @param {number} [timeoutMs]
     * @returns {Promise<RecordedRequest>}
     */
    waitForRequest(method, count = 1, timeoutMs = 2000) {
      const matching = () => requests.filter((r) => r.method === method);
      if (matching().length >= count) return Promise.resolve(matching()[count - 1]);
      return new Promise((resolve, reject) => {
        const timeout = AbortSignal.timeout(timeoutMs);
        const onRequest = () => {
          if (matching().length < count) return;
          events.removeEventListener('request', onRequest);
          resolve(matching()[count - 1]);
        };
        events.addEventListener('request', onRequest);
        timeout.addEventListener('abort', () => {
          events.removeEventListener('request', onRequest);
          reject(new Error(`the wallet received no "${method}" request #${count} within ${timeoutMs} ms`));
        });
      });
    },
  };

  /**
   * @param {string} method
   * @param {any} params
   * @param {(event: any) => void} onEvent
   * @param {AbortSignal} [signal]
   * @returns {Promise<unknown>}
   */
  async function answer(method, params, onEvent, signal) {
    switch (method) {
      case 'status':
        return wallet.link;
      case 'connect':
        if (pendingConnect) {
          const { promise } = pendingConnect;
          pendingConnect = null;
          return promise;
        }
        if (setup.connectError) throw new FakeWalletError(setup.connectError.message, setup.connectError.status);
        wallet.link = wallet.connectResult ?? wallet.link;
        return wallet.link;
      case 'disconnect':
        wallet.notify({ connected: false });
        return { connected: false };
      case 'chat': {
        if (!params?.messages) throw new FakeWalletError('A chat request carries its messages', 400);
        if (!wallet.link.connected) throw new FakeWalletError('This site is not connected to AI Wallet', 401);
        const script = chats.shift() ?? { text: 'Hello from the fake wallet' };
        if (typeof script === 'function') return script(params, onEvent, signal);
        return runScript(script, onEvent, signal);
      }
      default:
        throw new FakeWalletError(`AI Wallet has no method named ${method}`, 404);
    }
  }

  return wallet;
}

/**
 * Play one chat script through `onEvent` and return its result.
 *
 * @param {ChatScript} script
 * @param {(event: any) => void} onEvent
 * @param {AbortSignal} [signal]
 */
async function runScript(script, onEvent, signal) {
  const pieces = typeof script.text === 'string' ? [script.text] : script.text ?? [];
  const model = script.model ?? 'test-model';
  const failsFirst = script.error && pieces.length === 0;
  // "A chat that fails sends no start" (wallet-provider.md, "Streaming events").
  if (!script.noStart && !failsFirst) onEvent({ kind: 'start', providerName: script.providerName ?? 'Test', model });
  for (const delta of pieces) {
    await Promise.resolve();
    onEvent({ kind: 'text', delta });
  }
  if (script.hang) {
    await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
  }
  if (script.error) throw new FakeWalletError(script.error.message, script.error.status);
  const toolCalls = script.toolCalls ?? [];
  /** @type {any} */
  const result = {
    message: { role: 'assistant', content: pieces.join(''), ...(toolCalls.length ? { toolCalls } : {}) },
    finishReason: script.finishReason ?? (toolCalls.length ? 'toolCalls' : 'stop'),
    model: script.resultModel ?? model,
  };
  if (script.usage !== null) result.usage = script.usage ?? { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 };
  return result;
}

/**
 * Return a fake `window`: an EventTarget with a `location`, and `aiwallet` when given.
 *
 * @param {{ aiwallet?: unknown, href?: string }} [options]
 */
export function createFakeWindow({ aiwallet, href = 'https://shop.example/books/' } = {}) {
  const win = Object.assign(new EventTarget(), { location: { href } });
  if (aiwallet) Object.defineProperty(win, 'aiwallet', { value: aiwallet, writable: false, configurable: false });
  return win;
}

/**
 * Make `win` answer each `aiwallet:request` with an `aiwallet:announce` of `wallet`, as a wallet
 * that injects after the page's scripts does. `delay` runs the announce later (e.g. a fake timer).
 *
 * @param {EventTarget} win
 * @param {unknown} wallet
 * @param {(announce: () => void) => void} [delay]
 */
export function announceOnRequest(win, wallet, delay = (announce) => announce()) {
  win.addEventListener('aiwallet:request', () => {
    delay(() => win.dispatchEvent(new CustomEvent('aiwallet:announce', { detail: wallet })));
  });
}

/**
 * Install `win` as the global `window` (and its `location`); return a function that undoes it.
 *
 * @param {EventTarget & { location: { href: string } }} win
 * @returns {() => void}
 */
export function installWindow(win) {
  const g = /** @type {any} */ (globalThis);
  const saved = { window: g.window, location: g.location };
  g.window = win;
  g.location = win.location;
  return () => {
    if (saved.window === undefined) delete g.window; else g.window = saved.window;
    if (saved.location === undefined) delete g.location; else g.location = saved.location;
  };
}

/**
 * Resolve with the client's state once it has `status`, waiting on its `subscribe` events,
 * bounded by `timeoutMs`.
 *
 * @param {{ state: { status: string }, subscribe: (listener: (state: any) => void) => () => void }} client
 * @param {string} status
 * @param {number} [timeoutMs]
 * @returns {Promise<any>}
 */
export function waitForStatus(client, status, timeoutMs = 2000) {
  if (client.state.status === status) return Promise.resolve(client.state);
  return new Promise((resolve, reject) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const stop = client.subscribe((state) => {
      if (state.status !== status) return;
      stop();
      resolve(state);
    });
    timeout.addEventListener('abort', () => {
      stop();
      reject(new Error(`the client did not reach "${status}" within ${timeoutMs} ms (it is "${client.state.status}")`));
    });
  });
}
