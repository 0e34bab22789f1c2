// @ts-check
/**
 * WalletFetch: a `fetch` that answers the AI SDKs through the wallet, in their own protocol
 * (specs/aiconnect-core.md, "WalletFetch").
 *
 * `AiConnect.fetch` loads this module on first use, and this module loads only the one
 * translator a request needs, so a page pays for the protocols it speaks and no others. The
 * request never leaves the page: the host the SDK targets and its API key are not read.
 *
 * A streamed answer's HTTP response is held back until the first text (or the result) arrives,
 * so that "an answer that fails before any text comes back as an HTTP error with the wallet's
 * status" and each SDK raises its own typed error.
 */

import { BadRequest, jsonResponse, sseResponse } from './shared.js';

/** @typedef {import('../types.js').ConnectionState} ConnectionState */
/** @typedef {import('../types.js').ChatStart} ChatStart */
/** @typedef {import('../types.js').ProviderSession} ProviderSession */
/** @typedef {import('./shared.js').Translator} Translator */
/** @typedef {import('./shared.js').WalletCall} WalletCall */
/** @typedef {import('./shared.js').StreamWriter} StreamWriter */

/** The protocols, by how the request's path ends. Each loads its translator on first use. */
const ROUTES = [
  { suffix: '/chat/completions', load: () => import('./openai-chat.js') },
  { suffix: '/responses', load: () => import('./openai-responses.js') },
  { suffix: '/messages', load: () => import('./anthropic.js') },
  { suffix: ':generateContent', load: () => import('./gemini.js') },
  { suffix: ':streamGenerateContent', load: () => import('./gemini.js') },
];

/** The 401 message outside a browser (aiconnect-core.md, "WalletFetch"). */
export const NOT_IN_BROWSER = 'AI Wallet answers in the browser only';
/** The 401 message when no wallet answered the page (aiconnect-core.md, "WalletFetch"). */
export const NOT_INSTALLED = 'AI Wallet is not installed in this browser';
/** The 401 message when the site is not connected (aiconnect-core.md, "WalletFetch"). */
export const NOT_CONNECTED = 'AI Wallet is not connected on this site';
/** The message of a stream whose answer never named who answers (wallet-provider.md, step 5). */
export const NO_START = 'AI Wallet answered without naming who answers';

/**
 * Answer one SDK request through the wallet.
 *
 * @param {() => Promise<{ state: ConnectionState, refusal: unknown } | null>} settled The client's
 *   state once its status check and any connect in progress have ended, with the wallet's refusal
 *   of the status check on load when that put the state in `error`; `null` outside a browser.
 * @param {URL | RequestInfo} input
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function walletFetch(settled, input, init = {}) {
  const request = input instanceof Request ? input : null;
  const url = new URL(request ? request.url : String(input), 'http://localhost/');
  const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
  const route = method === 'POST' ? ROUTES.find(({ suffix }) => url.pathname.endsWith(suffix)) : undefined;
  if (!route) return jsonResponse(404, notFound(`AI Wallet does not answer ${method} ${url.pathname}`));

  const translator = /** @type {Translator} */ (await route.load());
  const signal = init.signal ?? request?.signal ?? undefined;
  signal?.throwIfAborted();
  /** @type {WalletCall} */
  let call;
  try {
    const text = await new Response(init.body ?? request?.body ?? null).text();
    call = translator.read(JSON.parse(text), url);
  } catch (error) {
    const message = error instanceof BadRequest ? error.message : 'The request body is not JSON';
    return jsonResponse(400, translator.errorBody(400, message));
  }

  const { state, refusal } = (await settled()) ?? { state: null, refusal: null };
  // The visitor may take a while to approve: an SDK that gave up meanwhile must not start a
  // chat on their account ("WalletFetch": aborting the SDK's signal stops the chat).
  signal?.throwIfAborted();
  // Such as 410 "AI Wallet was updated" on load: the visitor is to see the wallet's own message.
  if (state?.status === 'error' && refusal) return failure(translator, refusal);
  // Every other state but `connected` (a declined `connect()` included) is a site that is not
  // connected: 401 with one of the spec's two messages ("WalletFetch"), never the refusal's 403.
  if (state?.status !== 'connected') {
    const message = !state ? NOT_IN_BROWSER : state.status === 'noWallet' ? NOT_INSTALLED : NOT_CONNECTED;
    return jsonResponse(401, translator.errorBody(401, message));
  }
  return call.stream
    ? streamed(translator, state.session, call, signal)
    : whole(translator, state.session, call, signal);
}

/**
 * Ask the wallet and answer with one JSON body.
 *
 * @param {Translator} translator
 * @param {ProviderSession} session
 * @param {WalletCall} call
 * @param {AbortSignal} [signal]
 * @returns {Promise<Response>}
 */
async function whole(translator, session, call, signal) {
  const { messages, tools, options } = call;
  try {
    // A whole answer names its model in the result, so it needs no `start` event.
    const response = await session.chat({ messages, tools, options, signal });
    return jsonResponse(200, translator.whole(response));
  } catch (error) {
    // A fetch aborted by its own signal rejects with the signal's reason, as the platform's does.
    if (signal?.aborted) throw signal.reason;
    return failure(translator, error);
  }
}

/**
 * Ask the wallet and answer with the protocol's SSE stream, once the first text or the result
 * arrives. Before that, a failure is an HTTP error; after it, the protocol's error event.
 *
 * @param {Translator} translator
 * @param {ProviderSession} session
 * @param {WalletCall} call
 * @param {AbortSignal} [signal]
 * @returns {Promise<Response>}
 */
function streamed(translator, session, call, signal) {
  const chat = new AbortController();
  const onAbort = () => chat.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort);
  const encoder = new TextEncoder();

  return new Promise((resolve, reject) => {
    /** @type {ChatStart | null} */
    let start = null;
    /** @type {StreamWriter | null} */
    let writer = null;
    /** @type {ReadableStreamDefaultController<Uint8Array>} */
    let out;
    /** @param {string} text */
    const write = (text) => {
      try {
        if (text) out.enqueue(encoder.encode(text));
      } catch {
        // The reader cancelled the stream; `cancel` below has already stopped the chat.
      }
    };
    /** Open the response; false when the answer never named who answers. */
    const open = () => {
      if (writer) return true;
      if (!start) {
        chat.abort(noStart());
        return false;
      }
      writer = translator.stream(start, call);
      const body = new ReadableStream({
        start: (controller) => { out = controller; },
        // The SDK stopped reading (its own abort, or a `break` out of its loop): stop the chat.
        cancel: (reason) => chat.abort(reason),
      });
      resolve(sseResponse(body));
      write(writer.open());
      return true;
    };

    const { messages, tools, options } = call;
    session.chat({
      messages, tools, options, signal: chat.signal,
      onStart: (s) => { start = s; },
      onText: (delta) => { if (open()) write(/** @type {StreamWriter} */ (writer).text(delta)); },
    }).then((response) => {
      if (!open()) return resolve(failure(translator, noStart()));
      write(/** @type {StreamWriter} */ (writer).end(response));
      closeQuietly(out);
    }, (error) => {
      const reason = signal?.aborted ? signal.reason : error;
      if (!writer) {
        return signal?.aborted ? reject(reason) : resolve(failure(translator, reason));
      }
      if (signal?.aborted || chat.signal.aborted && chat.signal.reason === reason) {
        try { out.error(reason); } catch { /* already closed */ }
        return;
      }
      const { status, message } = describe(error);
      write(writer.fail(status, message));
      closeQuietly(out);
    }).finally(() => signal?.removeEventListener('abort', onAbort));
  });
}

/**
 * Return the protocol's HTTP error for a chat the wallet refused, with the wallet's status.
 *
 * @param {Translator} translator
 * @param {unknown} error
 * @returns {Response}
 */
function failure(translator, error) {
  const { status, message } = describe(error);
  return jsonResponse(status, translator.errorBody(status, message));
}

/**
 * Return the HTTP status and message of an error, read by name and status rather than
 * `instanceof` since the wallet builds its errors with its own class ("WalletRequestError").
 *
 * @param {unknown} error
 * @returns {{ status: number, message: string }}
 */
function describe(error) {
  const { status, message } = /** @type {{ status?: unknown, message?: unknown }} */ (error ?? {});
  const known = typeof status === 'number' && status >= 400 && status <= 599;
  return { status: known ? status : 502, message: typeof message === 'string' ? message : String(error) };
}

/** @returns {Error & { status: number }} */
function noStart() {
  return Object.assign(new Error(NO_START), { name: 'WalletRequestError', status: 502 });
}

/** @param {ReadableStreamDefaultController<Uint8Array>} controller */
function closeQuietly(controller) {
  try { controller.close(); } catch { /* the reader cancelled */ }
}

/**
 * An error body every SDK reads, for a request whose protocol is unknown: OpenAI reads
 * `error.message`, Anthropic `type` and `error.type`, Google `error.code` and `error.status`.
 *
 * @param {string} message
 */
function notFound(message) {
  return { type: 'error', error: { type: 'not_found_error', code: 404, status: 'NOT_FOUND', message } };
}
