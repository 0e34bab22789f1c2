// @ts-check
/**
 * The test wallet's `window.aiwallet`: an in-page stand-in for AI Wallet, for CI and for trying a
 * page by hand. It is not an AI: every answer comes from the test, from the developer's own model
 * server or the site's scripted player (by hand, through the site's relay), or from a labelled echo.
 *
 * A classic script (no `import`/`export`): it runs as a Playwright init script or as a plain
 * `<script>` before the page's own scripts. It keeps the page's side of specs/wallet-provider.md:
 *
 * - `window.aiwallet` is defined in the top frame of https pages and of http://localhost and
 *   http://127.0.0.1 (any port), with `writable: false` and `configurable: false`, and the object
 *   is frozen ("Discovery"). `aiwallet:announce` carries it at definition and again on each
 *   `aiwallet:request`.
 * - `request(method, params, onEvent, signal)` sends the request to a background (below) and
 *   pulls its events one at a time: `onEvent` gets one `start`, then each `text` delta, before
 *   the promise settles; an `error` event rejects with a `WalletRequestError` (`name`, `status`).
 * - Aborting `signal` rejects at once with the signal's reason and tells the background to stop.
 * - `onLink(listener)` receives the background's link notices.
 *
 * The background is the wallet itself: approved sites, the lock, the accounts and the model.
 *
 * - Driven: when the page has the Playwright binding `__testwalletAiwallet` (installed by
 *   `testwallet/aiwallet.py`), the test is the background: it plays the visitor in the unlock and
 *   approval windows and the model that answers, and logs every request.
 * - Standalone: without the binding (someone browsing a demo with `?testwallet=1` in DEBUG), the
 *   approval window is the test wallet's panel in the page (panel.js, loaded before this script)
 *   and an approval lasts for the tab. When the page has the
 *   site's test-wallet relay (relay.js, loaded before this script), chats go through it to the
 *   developer's own model server, or to the site's scripted player when none is named, and the
 *   account names which. Without it the only account is 'Test wallet' on 'echo-1', which streams
 *   back "Echo: " and the last user message.
 *
 * The binding protocol. The page calls the binding with one message and gets one value back:
 *
 *     { op: 'hello', page }                            -> null   this document defined the provider
 *     { op: 'listen', page }                           -> { kind: 'link', link } | null (stop)
 *     { op: 'request', page, id, method, params }      -> null
 *     { op: 'next', id }                               -> WalletEvent | null (the request is gone)
 *     { op: 'cancel', id }                             -> null   the page aborted the request
 *
 * `page` is a random id per document. The messages carry no origin: the test's side takes it from
 * the frame that called the binding, as a wallet takes it from the browser, never from the page. A `WalletEvent` is an
 * event of the background in "Inside AI Wallet" without its `id`: `{ kind: 'start', providerName,
 * model }`, `{ kind: 'text', delta }`, then one `{ kind: 'result', result }` or `{ kind: 'error',
 * status, message }`. The background produces each event only when the page asks for it, so a
 * test can hold an answer mid-stream (and press Stop, or let the page abort) at a known point.
 */
(() => {
  'use strict';

  /** The Playwright binding through which the test answers. */
  const BINDING = '__testwalletAiwallet';
  /** The name the provider shows; the SDK does not read it. */
  const NAME = 'Test wallet';
  /** The standalone wallet's one account: a deterministic echo, not an AI. */
  const ECHO_ACCOUNT = { providerName: 'Test wallet', model: 'echo-1' };
  /** Where the standalone wallet remembers this tab's approval of the origin. */
  const APPROVAL_KEY = 'testwallet:aiwallet:approved';
  /** The standalone wallet's pause between text deltas, so a person sees the answer stream. */
  const ECHO_STEP_MS = 40;

  /** The error table of wallet-provider.md ("Errors") that the standalone wallet can meet. */
  const ERRORS = {
    noMessages: { status: 400, message: 'A chat request carries its messages' },
    notConnected: { status: 401, message: 'This site is not connected to AI Wallet' },
    declined: { status: 403, message: 'The connection was declined' },
    /** @param {string} method */
    noMethod: (method) => ({ status: 404, message: `AI Wallet has no method named ${method}` }),
  };

  /**
   * @typedef {{ connected: false } | { connected: true, providerName: string, model?: string }} WalletLink
   * @typedef {{ kind: 'start', providerName: string, model: string } | { kind: 'text', delta: string }} ChatEvent
   * @typedef {ChatEvent
   *   | { kind: 'result', result: unknown }
   *   | { kind: 'error', status: number, message: string }} WalletEvent
   * @typedef {object} Background The wallet behind the provider.
   * @property {(onNotice: (link: WalletLink) => void) => void} listen Start delivering link notices.
   * @property {(id: string, method: string, params: unknown) => Promise<void>} open Send a request.
   * @property {(id: string) => Promise<WalletEvent | null>} next The request's next event.
   * @property {(id: string) => void} cancel Stop the request: the page aborted it.
   */

  if (window.top !== window) return; // "in the top frame of each tab"
  if (!servesThisPage(location)) return;
  if ('aiwallet' in window) return; // another wallet came first; it cannot be replaced anyway

  // What the page could replace later is read now.
  /**
   * The test wallet's panel in the page (panel.js, loaded before this script), where the standalone
   * wallet asks the person; without it, the standalone wallet declines.
   * @type {{ ask: (question: object) => Promise<{ action: string, text: string }> } | null}
   */
  const panel = Reflect.get(window, '__testwalletPanel') ?? null;
  /**
   * The site's relay to a model (relay.js), when this page has one.
   * @type {{ model: string, modelName: string, scripted: boolean,
   *   chat: (params: any, signal: AbortSignal) => AsyncGenerator<{ kind: 'text', delta: string }, any> } | null}
   */
  const relay = Reflect.get(window, '__testwalletRelay') ?? null;
  const dispatch = window.dispatchEvent.bind(window);
  const origin = location.origin;
  const pageId = randomId();

  /**
   * Raised (as a rejection) when the wallet refuses a request or cannot answer it. The wallet's
   * own copy of @aiconnect/core's class: pages read `name` and `status`, not `instanceof`.
   */
  class WalletRequestError extends Error {
    /** @param {string} message @param {number} status */
    constructor(message, status) {
      super(message);
      this.name = 'WalletRequestError';
      this.status = status;
    }
  }

  /** @type {Set<(link: WalletLink) => void>} */
  const linkListeners = new Set();
  /** @type {Background} */
  const background = typeof Reflect.get(window, BINDING) === 'function'
    ? drivenBackground(Reflect.get(window, BINDING))
    : standaloneBackground();

  /**
   * Send one request to the wallet and resolve with its result (wallet-provider.md, "The
   * provider object").
   *
   * @param {string} method
   * @param {unknown} [params]
   * @param {(event: ChatEvent) => void} [onEvent]
   * @param {AbortSignal} [signal]
   * @returns {Promise<unknown>}
   */
  function request(method, params, onEvent, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const id = randomId();
      let settled = false;
      /** @param {() => void} action */
      const settle = (action) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        action();
      };
      // "Aborting signal rejects the request at once with the signal's reason, and the wallet
      // stops the chat it runs for it."
      const onAbort = () => settle(() => {
        background.cancel(id);
        reject(signal?.reason);
      });
      signal?.addEventListener('abort', onAbort);

      (async () => {
        // Like postMessage, the request travels as a structured clone.
        await background.open(id, String(method), params === undefined ? undefined : structuredClone(params));
        let started = false;
        while (!settled) {
          const event = await background.next(id);
          if (settled) return;
          if (event === null) throw new Error('The test wallet ended this request without an answer');
          if (event.kind === 'start') {
            if (started) continue; // one start per answer, whatever the background sends
            started = true;
            deliver(onEvent, { kind: 'start', providerName: event.providerName, model: event.model });
          } else if (event.kind === 'text') {
            deliver(onEvent, { kind: 'text', delta: event.delta });
          } else if (event.kind === 'result') {
            return settle(() => resolve(event.result));
          } else {
            return settle(() => reject(new WalletRequestError(event.message, event.status)));
          }
        }
      })().catch((error) => settle(() => reject(error)));
    });
  }

  /**
   * Add a listener for link notices; return a function that removes it.
   *
   * @param {(link: WalletLink) => void} listener
   * @returns {() => void}
   */
  function onLink(listener) {
    if (typeof listener !== 'function') throw new TypeError('onLink takes a function');
    linkListeners.add(listener);
    return () => void linkListeners.delete(listener);
  }

  /** @param {WalletLink} link */
  function notifyLink(link) {
    for (const listener of [...linkListeners]) {
      try {
        listener({ ...link });
      } catch (error) {
        reportError(error); // a page's listener must not stop the others
      }
    }
  }

  /**
   * @param {((event: ChatEvent) => void) | undefined} onEvent
   * @param {ChatEvent} event
   */
  function deliver(onEvent, event) {
    if (typeof onEvent !== 'function') return;
    try {
      onEvent(event);
    } catch (error) {
      reportError(error); // the page's bug, not the answer's: the answer goes on
    }
  }

  const provider = Object.freeze({ isAIWallet: /** @type {const} */ (true), name: NAME, request, onLink });

  Object.defineProperty(window, 'aiwallet', { value: provider, writable: false, configurable: false });
  const announce = () => dispatch(new CustomEvent('aiwallet:announce', { detail: provider }));
  window.addEventListener('aiwallet:request', announce);
  background.listen(notifyLink);
  announce();

  // -- The backgrounds -------------------------------------------------------------------------

  /**
   * The test, through the Playwright binding.
   *
   * @param {(message: object) => Promise<any>} binding
   * @returns {Background}
   */
  function drivenBackground(binding) {
    return {
      listen(onNotice) {
        (async () => {
          await binding({ op: 'hello', page: pageId });
          for (;;) {
            const notice = await binding({ op: 'listen', page: pageId });
            if (!notice) return;
            onNotice(notice.link);
          }
        })().catch(() => undefined); // the page is going away, or the test ended
      },
      async open(id, method, params) {
        await binding({ op: 'request', page: pageId, id, method, params });
      },
      next: (id) => binding({ op: 'next', id }),
      cancel: (id) => void binding({ op: 'cancel', id }).catch(() => undefined),
    };
  }

  /**
   * The wallet on its own, for a person trying a page: the test wallet's panel approves the site
   * for the tab, and the echo model answers as 'Test wallet' on 'echo-1'.
   *
   * @returns {Background}
   */
  function standaloneBackground() {
    /** @type {(link: WalletLink) => void} */
    let notify = () => undefined;
    /** @type {Map<string, AsyncGenerator<WalletEvent, void>>} */
    const answers = new Map();
    /** @type {Map<string, AbortController>} */
    const stops = new Map();
    const account = relay
      ? { providerName: relay.scripted ? 'Test wallet (scripted)' : 'Test wallet', model: relay.modelName }
      : ECHO_ACCOUNT;

    const approved = () => {
      try {
        return sessionStorage.getItem(APPROVAL_KEY) === origin;
      } catch {
        return false;
      }
    };
    /** @param {boolean} yes */
    const remember = (yes) => {
      try {
        if (yes) sessionStorage.setItem(APPROVAL_KEY, origin);
        else sessionStorage.removeItem(APPROVAL_KEY);
      } catch {
        // Storage refused (sandboxed page): the approval lasts until the next request only.
      }
    };
    /** @returns {WalletLink} */
    const link = () => (approved() ? { connected: true, ...account } : { connected: false });

    /**
     * @param {string} method
     * @param {any} params
     * @param {AbortSignal} signal
     * @returns {AsyncGenerator<WalletEvent, void>}
     */
    async function* answer(method, params, signal) {
      if (method === 'status') {
        yield { kind: 'result', result: link() };
      } else if (method === 'connect') {
        if (!approved()) {
          const answers = relay === null ? 'It echoes your messages back. It is not an AI.'
            : relay.scripted ? 'A scripted player answers. It is not an AI.'
              : `Your own model server answers: ${relay.model}.`;
          if (!await approveHere(answers)) {
            return yield { kind: 'error', ...ERRORS.declined };
          }
          remember(true);
          notify(link());
        }
        yield { kind: 'result', result: link() };
      } else if (method === 'disconnect') {
        remember(false);
        notify({ connected: false });
        yield { kind: 'result', result: { connected: false } };
      } else if (method === 'chat') {
        if (!hasMessages(params)) return yield { kind: 'error', ...ERRORS.noMessages };
        if (!approved()) return yield { kind: 'error', ...ERRORS.notConnected };
        if (relay) return yield* relayed(params, signal);
        const reply = echo(params.messages);
        yield { kind: 'start', ...ECHO_ACCOUNT };
        for (const [index, delta] of reply.deltas.entries()) {
          if (index > 0) await new Promise((resolve) => setTimeout(resolve, ECHO_STEP_MS));
          yield { kind: 'text', delta };
        }
        yield { kind: 'result', result: reply.result };
      } else {
        yield { kind: 'error', ...ERRORS.noMethod(method) };
      }
    }

    /**
     * A chat through the site's relay: `start` before the first text or the result, then the text
     * as the model streams it; a failure is an error event with the relay's status and words.
     *
     * @param {any} params
     * @param {AbortSignal} signal
     * @returns {AsyncGenerator<WalletEvent, void>}
     */
    async function* relayed(params, signal) {
      let started = false;
      const running = /** @type {NonNullable<typeof relay>} */ (relay).chat(params, signal);
      try {
        for (;;) {
          const step = await running.next();
          if (!started && (!step.done || step.value)) {
            started = true;
            yield { kind: 'start', ...account };
          }
          if (step.done) return yield { kind: 'result', result: step.value };
          yield step.value;
        }
      } catch (error) {
        if (signal.aborted) return;
        const status = Number(/** @type {any} */ (error)?.status) || 502;
        yield { kind: 'error', status, message: `Test wallet's model answered ${status}: ${String(/** @type {any} */ (error)?.message ?? error)}` };
      }
    }

    /**
     * Ask the person in the test wallet's panel whether this site may use the wallet.
     * @param {string} answers who answers the chats, in the person's words
     */
    async function approveHere(answers) {
      if (panel === null) {
        console.error('testwallet aiwallet: load panel.js before aiwallet.js to be asked; the connection is declined');
        return false;
      }
      const { action } = await panel.ask({
        title: `Let ${location.host} use the test wallet?`,
        lines: [`The AI Wallet stand-in: ${answers}`, 'Approved for this tab until the page disconnects.'],
        actions: [{ label: 'Approve', value: 'allow' }, { label: 'Decline', value: 'decline' }],
        cancel: 'decline',
      });
      return action === 'allow';
    }

    return {
      listen(onNotice) {
        notify = onNotice;
      },
      async open(id, method, params) {
        const stop = new AbortController();
        stops.set(id, stop);
        answers.set(id, answer(method, params, stop.signal));
      },
      async next(id) {
        const answering = answers.get(id);
        const step = answering && await answering.next();
        if (!step || step.done) {
          answers.delete(id);
          stops.delete(id);
          return null;
        }
        if (step.value.kind === 'result' || step.value.kind === 'error') {
          answers.delete(id);
          stops.delete(id);
        }
        return step.value;
      },
      cancel(id) {
        stops.get(id)?.abort(new DOMException('The page stopped the answer', 'AbortError'));
        stops.delete(id);
        void answers.get(id)?.return(undefined);
        answers.delete(id);
      },
    };
  }

  // -- Helpers ---------------------------------------------------------------------------------

  /**
   * Whether AI Wallet runs on this page: HTTPS, and http://localhost and http://127.0.0.1 at any
   * port (wallet-provider.md, "window.aiwallet").
   *
   * @param {Location} where
   */
  function servesThisPage(where) {
    if (where.protocol === 'https:') return true;
    return where.protocol === 'http:' && (where.hostname === 'localhost' || where.hostname === '127.0.0.1');
  }

  /** @param {any} params */
  function hasMessages(params) {
    return Array.isArray(params?.messages) && params.messages.length > 0;
  }

  /**
   * The echo model: "Echo: " and the text of the last user message, streamed a word at a time.
   * testwallet/aiwallet.py's default model answers the same, word for word.
   *
   * @param {any[]} messages
   */
  function echo(messages) {
    const last = [...messages].reverse().find((message) => message?.role === 'user');
    const content = `Echo: ${textOf(last?.content)}`;
    const deltas = content.match(/\s*\S+\s*/g) ?? [content];
    const words = (/** @type {string} */ text) => text.split(/\s+/).filter(Boolean).length;
    const inputTokens = messages.reduce((sum, message) => sum + words(textOf(message?.content)), 0);
    return {
      deltas,
      result: {
        message: { role: 'assistant', content },
        finishReason: 'stop',
        model: ECHO_ACCOUNT.model,
        usage: { inputTokens, outputTokens: deltas.length, cachedInputTokens: 0 },
      },
    };
  }

  /**
   * The text of a message's content: a string, or its text parts joined (images left out).
   *
   * @param {unknown} content
   * @returns {string}
   */
  function textOf(content) {
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content.map((part) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
  }

  /** A random hex id; `crypto.randomUUID` exists only in secure contexts. */
  function randomId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  }
})();
