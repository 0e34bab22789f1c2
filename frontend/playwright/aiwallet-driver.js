// @ts-check
/**
 * The test AI Wallet for Playwright in JavaScript (Playwright Test or a plain script): the wallet
 * behind `window.aiwallet` of testwallet/aiwallet.js, answering the page through the Playwright binding
 * `__testwalletAiwallet`, as testwallet/aiwallet/ does for pytest. The test plays the visitor (the
 * approval window) and the model (queued replies, tool calls, provider failures), and reads the log;
 * or the model answers: `answerFrom(url)` asks the fixtures' cassette (`python -m testwallet.cassette
 * serve`) every chat the queue does not answer, and passes on the wallet's events it answers with.
 *
 * The binding protocol is aiwallet.js's (its header): hello, listen, request, next, cancel. Each
 * answer is an async generator that produces an event only when the page asks for the next one.
 * Not ported from the Python driver: the lock and unlock window, accounts other than the default
 * one, Auto, holding a reply mid-stream and Stop; a test that needs them uses pytest.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TIMEOUT_MS, Pulse, ScriptError, checkConsent, frameOrigin, originOf, waitUntil } from './driver.js';

/** The Playwright binding the page calls. */
export const BINDING = '__testwalletAiwallet';

/** The in-page provider, to add as an init script. */
export const SCRIPT_PATH = fileURLToPath(new URL('../testwallet/aiwallet.js', import.meta.url));

/** The wallet's errors (wallet-provider.md, "Errors") this driver answers. */
const ERRORS = {
  noMessages: { status: 400, message: 'A chat request carries its messages' },
  notConnected: { status: 401, message: 'This site is not connected to AI Wallet' },
  declined: { status: 403, message: 'The connection was declined' },
  noAccount: { status: 403, message: 'AI Wallet has no AI account connected' },
};
/** Not in the spec: the test's own script went wrong (see ScriptError). */
const SCRIPT_FAILED = 500;
/** What the cassette's server answers a chat it has no recording of (the relay's status for it too). */
const NOT_RECORDED = 409;

/** Raised by `check()` when a chat had no recording in the cassette: names the chat and what differs. */
export class NotRecorded extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'NotRecorded';
  }
}

/**
 * @typedef {{ connected: false } | { connected: true, providerName: string, model?: string }} WalletLink
 * @typedef {{ kind: 'start', providerName: string, model: string }
 *   | { kind: 'text', delta: string }
 *   | { kind: 'result', result: unknown }
 *   | { kind: 'error', status: number, message: string }} WalletEvent
 * @typedef {{ name: string, arguments?: Record<string, unknown> | string, id?: string }} ToolCall
 *   A tool the model asks for; `arguments` an object or the JSON text of one.
 * @typedef {object} ReplyOptions
 * @property {ToolCall[]} [toolCalls]
 * @property {string} [finishReason] default: 'toolCalls' with tool calls, else 'stop'
 * @property {string} [model] the model as the provider names it (default: the account's)
 * @typedef {{ kind: 'reply', deltas: string[], toolCalls: ToolCall[], finishReason?: string, model?: string }
 *   | { kind: 'fail', status: number, detail: string }} Scripted
 * @typedef {object} Request A request the page sent, and the last event it got.
 * @property {string} method
 * @property {unknown} params
 * @property {string} origin taken from the frame that sent it
 * @property {WalletEvent | null} answer
 * @typedef {object} Chat A chat that reached the model.
 * @property {any[]} messages
 * @property {any[] | undefined} tools
 * @property {string} origin
 * @property {string} account
 * @property {string} model
 * @property {'answered' | 'failed' | 'cancelled' | null} outcome
 */

/** The wallet behind one test's `window.aiwallet`. */
export class AiWallet {
  /** @type {import('./driver.js').Consent} */
  #consent = 'allow';
  /** The one AI account: its name and model, as the page sees them. */
  account = { name: 'Test wallet', model: 'echo-1' };
  /** @type {Request[]} every request the page sent */
  requests = [];
  /** @type {Chat[]} every chat that reached the model */
  chats = [];
  /** @type {[string, WalletLink][]} every link notice sent, with its origin */
  notices = [];
  /** @type {string[]} the cassette's message for each chat it had no recording of */
  misses = [];
  /**
   * Called with the message of each chat the cassette had no recording of, before the page gets it
   * (the fixture attaches it to the test's report).
   * @type {((message: string) => unknown) | null}
   */
  onMiss = null;
  /** @type {string | null} the model server that answers what the queue does not */
  #modelUrl = null;

  /** @type {Scripted[]} */
  #queue = [];

  /**
   * What the visitor does in the approval window `connect` opens: 'allow' (Approve, the default),
   * 'decline' or 'close' (the page gets 403 "The connection was declined").
   */
  get consent() {
    return this.#consent;
  }

  set consent(choice) {
    this.#consent = checkConsent(choice, ['allow', 'decline', 'close']);
  }
  /** @type {Set<string>} approved origins */
  #sites = new Set();
  /** @type {Map<string, { origin: string, frame: any, notices: (WalletLink | null)[], waiting: ((notice: any) => void) | null }>} */
  #pages = new Map();
  /** @type {Map<string, { log: Request, events: AsyncGenerator<WalletEvent, void>, chat: Chat | null }>} */
  #answering = new Map();
  /** @type {Error[]} */
  #scriptErrors = [];
  #pulse = new Pulse();
  /** @type {unknown[]} */
  #installed = [];
  #toolCallIds = 1;

  /**
   * Define `window.aiwallet` in every document `target` (a Page or BrowserContext) loads from now
   * on, before the page's scripts run.
   *
   * @param {import('./driver.js').Target} target
   */
  async install(target) {
    if (this.#installed.includes(target)) return;
    await target.exposeBinding(BINDING, (source, message) => this.#onCall(source, message));
    await target.addInitScript({ path: SCRIPT_PATH });
    this.#installed.push(target);
  }

  /**
   * Queue the model's next answer: `text` a string or the list of deltas it streams, and tool calls.
   *
   * @param {string | string[]} [text]
   * @param {ReplyOptions} [options]
   */
  reply(text = '', { toolCalls = [], finishReason, model } = {}) {
    const deltas = (typeof text === 'string' ? [text] : text).filter((delta) => delta !== '');
    this.#queue.push({ kind: 'reply', deltas, toolCalls, finishReason, model });
  }

  /**
   * Answer every chat the queue does not from the cassette `python -m testwallet.cassette serve`
   * serves at `url` (its /v1 base): the chat goes there as the page sent it (`POST <url>/wallet/chat`)
   * and its events come back as they stream, so that Python alone turns chats into a model's
   * requests and its answers into the wallet's events. A chat the cassette has no recording of
   * gets 409 and the cassette's message, and makes `check()` throw NotRecorded.
   *
   * @param {string | null} url null: back to the echo model
   */
  answerFrom(url) {
    this.#modelUrl = url;
  }

  /**
   * Queue a provider refusal: the page gets `<account> answered <status>: <detail>` with `status`.
   *
   * @param {number} status
   * @param {string} detail
   */
  fail(status, detail) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`fail() takes an HTTP error status (400-599); got ${status}`);
    }
    this.#queue.push({ kind: 'fail', status, detail: String(detail) });
  }

  /**
   * Approve the origin of `url` beforehand, as if the visitor had.
   *
   * @param {string} url
   */
  approveSite(url) {
    this.#sites.add(originOf(url));
    this.#pulse.wake();
  }

  /**
   * The link of `origin`, as `status` answers it.
   *
   * @param {string} origin
   * @returns {WalletLink}
   */
  link(origin) {
    if (!this.#sites.has(origin)) return { connected: false };
    return { connected: true, providerName: this.account.name, model: this.account.model };
  }

  /**
   * Wait until `predicate(wallet)` is true, such as `(w) => w.chats.length === 2`.
   *
   * @param {(wallet: AiWallet) => unknown} predicate
   * @param {{ timeout?: number }} [options] in milliseconds
   */
  async waitUntil(predicate, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
    await waitUntil(() => predicate(this), this.#pulse, timeout, `${predicate.name || 'The predicate'} did not become true`);
  }

  /** Throw the first error the test's script caused (a ScriptError), and forget them. */
  check() {
    const [first] = this.#scriptErrors;
    this.#scriptErrors = [];
    if (first) throw first;
  }

  /** End every pending wait of the pages: the test is over. */
  async close() {
    for (const answering of this.#answering.values()) await answering.events.return(undefined);
    this.#answering.clear();
    for (const page of this.#pages.values()) page.waiting?.(null);
    this.#pages.clear();
  }

  // -- The binding -------------------------------------------------------------------------------

  /**
   * @param {{ frame: any }} source
   * @param {any} message
   */
  async #onCall(source, message) {
    switch (message?.op) {
      case 'hello': return this.#hello(source, String(message.page));
      case 'listen': return this.#listen(String(message.page));
      case 'request': return this.#open(message, frameOrigin(source));
      case 'next': return this.#next(String(message.id));
      case 'cancel': return this.#cancel(String(message.id));
      default: throw new Error(`Unknown op ${JSON.stringify(message?.op)} from the page script`);
    }
  }

  /**
   * @param {{ frame: any }} source
   * @param {string} pageId
   */
  #hello(source, pageId) {
    for (const [id, page] of this.#pages) {
      if (page.frame === source.frame || page.frame.isDetached()) { // that document was replaced or closed
        page.waiting?.(null);
        this.#pages.delete(id);
      }
    }
    this.#pages.set(pageId, { origin: frameOrigin(source), frame: source.frame, notices: [], waiting: null });
    return null;
  }

  /** @param {string} pageId */
  #listen(pageId) {
    const page = this.#pages.get(pageId);
    if (!page) return null;
    if (page.notices.length) return { kind: 'link', link: page.notices.shift() };
    return new Promise((resolve) => {
      page.waiting = (link) => {
        page.waiting = null;
        resolve(link ? { kind: 'link', link } : null);
      };
    });
  }

  /**
   * @param {any} message
   * @param {string} origin
   */
  #open(message, origin) {
    /** @type {Request} */
    const log = { method: String(message.method), params: message.params, origin, answer: null };
    this.requests.push(log);
    const answering = { log, events: /** @type {AsyncGenerator<WalletEvent, void>} */ (/** @type {unknown} */ (null)), chat: /** @type {Chat | null} */ (null) };
    answering.events = this.#answer(answering);
    this.#answering.set(String(message.id), answering);
    this.#pulse.wake();
    return null;
  }

  /** @param {string} id */
  async #next(id) {
    const answering = this.#answering.get(id);
    if (!answering) return null;
    /** @type {WalletEvent | null} */
    let event;
    try {
      const step = await answering.events.next();
      event = step.done ? null : step.value;
    } catch (error) {
      this.#scriptErrors.push(/** @type {Error} */ (error));
      event = { kind: 'error', status: SCRIPT_FAILED, message: `The test wallet's script failed: ${/** @type {Error} */ (error).message}` };
    }
    if (event === null || event.kind === 'result' || event.kind === 'error') {
      answering.log.answer = event;
      this.#answering.delete(id);
    }
    this.#pulse.wake();
    return event;
  }

  /** @param {string} id */
  async #cancel(id) {
    const answering = this.#answering.get(id);
    this.#answering.delete(id);
    if (answering?.chat && answering.chat.outcome === null) answering.chat.outcome = 'cancelled';
    await answering?.events.return(undefined);
    this.#pulse.wake();
    return null;
  }

  // -- Answering ---------------------------------------------------------------------------------

  /**
   * The events that answer one request, each produced when the page asks for it.
   *
   * @param {{ log: Request, chat: Chat | null }} answering
   * @returns {AsyncGenerator<WalletEvent, void>}
   */
  async* #answer(answering) {
    const { method, params, origin } = answering.log;
    if (method === 'status') {
      yield { kind: 'result', result: this.link(origin) };
    } else if (method === 'connect') {
      if (!this.#sites.has(origin)) {
        if (this.#consent !== 'allow') return yield { kind: 'error', ...ERRORS.declined };
        this.#sites.add(origin);
        this.#notify(origin, this.link(origin));
      }
      yield { kind: 'result', result: this.link(origin) };
    } else if (method === 'disconnect') {
      this.#sites.delete(origin);
      this.#notify(origin, { connected: false });
      yield { kind: 'result', result: { connected: false } };
    } else if (method === 'chat') {
      yield* this.#chat(answering, /** @type {any} */ (params));
    } else {
      yield { kind: 'error', status: 404, message: `AI Wallet has no method named ${method}` };
    }
  }

  /**
   * @param {{ log: Request, chat: Chat | null }} answering
   * @param {any} params
   * @returns {AsyncGenerator<WalletEvent, void>}
   */
  async* #chat(answering, params) {
    const messages = params?.messages;
    if (!Array.isArray(messages) || messages.length === 0) return yield { kind: 'error', ...ERRORS.noMessages };
    if (!this.#sites.has(answering.log.origin)) return yield { kind: 'error', ...ERRORS.notConnected };
    /** @type {Chat} */
    const chat = {
      messages, tools: params.tools, origin: answering.log.origin,
      account: this.account.name, model: this.account.model, outcome: null,
    };
    answering.chat = chat;
    this.chats.push(chat);
    if (!this.#queue.length && this.#modelUrl) return yield* this.#fromModel(chat, params, this.#modelUrl);
    const scripted = this.#queue.shift() ?? echo(messages);
    if (scripted.kind === 'fail') {
      chat.outcome = 'failed';
      return yield { kind: 'error', status: scripted.status, message: `${chat.account} answered ${scripted.status}: ${scripted.detail}` };
    }
    const toolCalls = this.#toolCalls(chat, scripted.toolCalls);
    yield { kind: 'start', providerName: chat.account, model: chat.model };
    for (const delta of scripted.deltas) yield { kind: 'text', delta };
    const content = scripted.deltas.join('');
    const words = (/** @type {string} */ text) => text.split(/\s+/).filter(Boolean).length;
    chat.outcome = 'answered';
    yield {
      kind: 'result',
      result: {
        message: { role: 'assistant', content, ...(toolCalls.length ? { toolCalls } : {}) },
        finishReason: scripted.finishReason ?? (toolCalls.length ? 'toolCalls' : 'stop'),
        model: scripted.model ?? chat.model,
        // Words, as the Python driver and the in-page echo count: a deterministic stand-in for tokens.
        usage: {
          inputTokens: messages.reduce((sum, m) => sum + words(textOf(m?.content)), 0),
          outputTokens: scripted.deltas.length,
          cachedInputTokens: 0,
        },
      },
    };
  }

  /**
   * Answer a chat from the cassette's server: `start` once its first event is there, so that a
   * refusal, such as a chat never recorded, reaches the page with no start.
   *
   * @param {Chat} chat
   * @param {any} params
   * @param {string} url
   * @returns {AsyncGenerator<WalletEvent, void>}
   */
  async* #fromModel(chat, params, url) {
    const failed = (/** @type {number} */ status, /** @type {string} */ message) => {
      chat.outcome = 'failed';
      return /** @type {WalletEvent} */ ({ kind: 'error', status, message: `${chat.account} answered ${status}: ${message}` });
    };
    let response;
    try {
      response = await fetch(`${url}/wallet/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ messages: params.messages, tools: params.tools, options: params.options, stream: true }),
      });
    } catch (error) {
      return yield failed(502, `the cassette's server at ${url} could not be reached (${/** @type {Error} */ (error).message})`);
    }
    if (!response.ok || !response.body) {
      const answer = await response.json().catch(() => null);
      const message = typeof answer?.error?.message === 'string' ? answer.error.message : `The cassette's server answered ${response.status}`;
      if (response.status === NOT_RECORDED) {
        chat.outcome = 'failed';
        this.misses.push(message);
        this.#scriptErrors.push(new NotRecorded(message));
        await this.onMiss?.(message);
        return yield { kind: 'error', status: NOT_RECORDED, message };
      }
      return yield failed(response.ok ? 502 : response.status, message);
    }
    const events = linesOf(response.body);
    const next = async () => events.next().catch((error) => ({
      done: false, value: { kind: 'error', status: 502, message: `the answer broke off (${error.message})` },
    }));
    let step = await next();
    // "right before the first text, or the result": not ahead of a failure that comes first.
    if (!step.done && step.value?.kind !== 'error') yield { kind: 'start', providerName: chat.account, model: chat.model };
    for (; !step.done; step = await next()) {
      const event = step.value;
      if (event?.kind === 'text') {
        yield { kind: 'text', delta: String(event.delta) };
      } else if (event?.kind === 'result') {
        chat.outcome = 'answered';
        // The model the server named, else the account's (a recording need not name one).
        return yield { kind: 'result', result: { model: chat.model, ...event.result } };
      } else if (event?.kind === 'error') {
        return yield failed(Number(event.status) || 502, String(event.message));
      }
    }
    yield failed(502, 'the cassette\'s server ended the answer without a result');
  }

  /**
   * The reply's tool calls with ids and parsed arguments; a ScriptError unless the chat offered them.
   *
   * @param {Chat} chat
   * @param {ToolCall[]} calls
   */
  #toolCalls(chat, calls) {
    const offered = (chat.tools ?? []).map((tool) => tool?.name);
    return calls.map((call) => {
      if (!offered.includes(call.name)) {
        throw new ScriptError(`The reply calls ${JSON.stringify(call.name)}; this chat offered ${offered.join(', ') || 'no tools'}.`);
      }
      const args = typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments ?? {};
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        throw new ScriptError(`The arguments of ${JSON.stringify(call.name)} are not an object.`);
      }
      return { id: call.id ?? `call_${this.#toolCallIds++}`, name: call.name, arguments: args };
    });
  }

  /**
   * Send the open pages of `origin` a link notice.
   *
   * @param {string} origin
   * @param {WalletLink} link
   */
  #notify(origin, link) {
    this.notices.push([origin, link]);
    for (const page of this.#pages.values()) {
      if (page.origin !== origin) continue;
      if (page.waiting) page.waiting({ ...link });
      else page.notices.push({ ...link });
    }
  }
}

/**
 * The echo model: "Echo: " and the last user message, a word per delta (as aiwallet.js's).
 *
 * @param {any[]} messages
 * @returns {Scripted}
 */
function echo(messages) {
  const last = [...messages].reverse().find((message) => message?.role === 'user');
  const content = `Echo: ${textOf(last?.content)}`;
  return { kind: 'reply', deltas: content.match(/\s*\S+\s*/g) ?? [content], toolCalls: [] };
}

/**
 * The text of a message's content: a string, or its text parts joined.
 *
 * @param {unknown} content
 * @returns {string}
 */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * The JSON objects of a JSON Lines body, each as its line arrives (Node's own line reader).
 *
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<any, void>}
 */
async function* linesOf(body) {
  const input = Readable.fromWeb(/** @type {import('node:stream/web').ReadableStream} */ (body));
  for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line.trim()) yield JSON.parse(line);
}
