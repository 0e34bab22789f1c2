// @ts-check
/**
 * `WayChooser`: one interface for a page that needs text written, whatever way the visitor
 * brings a model in. It finds which ways are present, offers them in `WAY_ORDER`, keeps one
 * `current` way (the one answering, which the page always shows), lets the visitor switch, and
 * sends every "no" of a way (null, a failure, a decline) to own mode with a plain notice, never
 * to an error page.
 *
 *     const chooser = new WayChooser([aiWalletWay(client), extensionWay({ manifest }), ownWay()]);
 *     chooser.subscribe(render);
 *     await chooser.ready;                      // detection done; a ready way may be current
 *     button.onclick = () => chooser.use('extension');   // from the click
 *     const answer = await chooser.generate({ messages, choices: ['yes', 'no'], signal });
 *     if (answer === null) playOnOurOwn();      // own mode, or the way said no and own mode took over
 */

import { abortable } from './messages.js';
import { ownWay } from './own.js';

/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').WayId} WayId */
/** @typedef {import('./types.js').GenerateRequest} GenerateRequest */
/** @typedef {import('./types.js').ConnectOptions} ConnectOptions */

/**
 * The order in which ways are offered, and in which a way that is ready without a click is
 * picked at the start: the visitor's own wallet (AI Wallet, then the BYOA extension, then the
 * BYOA wallet by link), then the browser's built-in model, then own mode, always last.
 *
 * @type {readonly WayId[]}
 */
export const WAY_ORDER = Object.freeze(['aiwallet', 'extension', 'link', 'builtin', 'own']);

/**
 * How long a way may take to say whether it is present (AI Wallet's own discovery takes 300 ms);
 * a way that has not said by then counts as absent, so that one hanging API cannot hold the page.
 */
export const DETECT_TIMEOUT_MS = 3000;

/** @typedef {{ text: string, way: WayId, model?: string, data?: unknown }} ChosenAnswer */

export class WayChooser {
  /** @type {Way[]} every way given, in `WAY_ORDER` */
  #all;
  /** @type {Way} */
  #current;
  /** @type {Set<(chooser: WayChooser) => void>} */
  #listeners = new Set();
  /** What the visitor should know about the last switch ('' when nothing). */
  notice = '';
  /** @type {Promise<void>} Resolves when every way has been detected. */
  ready;

  /**
   * @param {Way[]} ways The ways this page can use, in any order; own mode is added when missing.
   */
  constructor(ways) {
    const own = ways.find((way) => way.id === 'own') ?? ownWay();
    const others = ways.filter((way) => way.id !== 'own');
    for (const way of others) {
      if (!WAY_ORDER.includes(way.id)) throw new TypeError(`Unknown way "${way.id}": use one of ${WAY_ORDER.join(', ')}`);
    }
    this.#all = [...others, own].sort((a, b) => WAY_ORDER.indexOf(a.id) - WAY_ORDER.indexOf(b.id));
    this.#current = own;
    this.ready = this.#detect();
  }

  /** The ways present in this browser, in `WAY_ORDER` (own mode last, always there). */
  get ways() {
    return this.#all.filter((way) => way.status !== 'absent');
  }

  /** The way that answers now. */
  get current() {
    return this.#current;
  }

  /**
   * Call `listener` whenever the ways, the current way or the notice change; return a function
   * that removes it.
   *
   * @param {(chooser: WayChooser) => void} listener
   * @returns {() => void}
   */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Switch to the way `id`, starting it when it is not ready: call this from the visitor's click.
   * Resolves `true` when that way answers from now on; `false` when it said no, and then own mode
   * answers and `notice` says why. Aborting `options.signal` while the way connects (the visitor
   * stopped waiting for a consent or a link) resolves `false` at once; the way's late answer
   * is dropped.
   *
   * @param {WayId} id
   * @param {ConnectOptions} [options]
   * @returns {Promise<boolean>}
   */
  async use(id, options) {
    const way = this.#all.find((candidate) => candidate.id === id);
    if (!way || way.status === 'absent') {
      this.#fallBack(`${way?.label ?? id} is not available in this browser.`);
      return false;
    }
    this.notice = '';
    this.#changed();
    let started = way.status === 'ready';
    if (!started) {
      try {
        started = await abortable(way.connect(options), options?.signal);
      } catch {
        started = false;
      }
    }
    if (options?.signal?.aborted) {
      this.#fallBack(`You stopped waiting for ${inSentence(way.label)}, so the site plays on its own.`);
      return false;
    }
    if (!started) {
      this.#fallBack(`${way.label} did not connect, so the site plays on its own.`);
      return false;
    }
    this.#current = way;
    this.#changed();
    return true;
  }

  /**
   * Ask the current way for text. Resolves with the answer, or `null` when own mode is current
   * or the way said no (then own mode becomes current, with a notice). Rejects with the signal's
   * reason when aborted, and with a RangeError for a model the way was not granted.
   *
   * With `{ fallBack: false }` a "no" resolves `null` and changes nothing (e.g. a second model's
   * check, whose failure should not end the first model's way).
   *
   * @param {GenerateRequest} request
   * @param {{ fallBack?: boolean }} [options]
   * @returns {Promise<ChosenAnswer | null>}
   */
  async generate(request, { fallBack = true } = {}) {
    const way = this.#current;
    if (way.id === 'own') return null;
    if (request.model !== undefined && way.models.length > 0 && !way.models.includes(request.model)) {
      throw new RangeError(`Model "${request.model}" was not granted to ${way.label}; granted: ${way.models.join(', ')}`);
    }
    request.signal?.throwIfAborted();
    let answer;
    try {
      answer = await way.generate(request);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (!fallBack) return null;
      const reason = /** @type {any} */ (error)?.name === 'WalletRequestError' ? ` (${/** @type {any} */ (error).message})` : '';
      this.#fallBack(`${way.label} did not answer${reason}, so the site plays on its own.`, way);
      return null;
    }
    if (request.signal?.aborted) throw request.signal.reason;
    if (answer === null || typeof answer.text !== 'string') {
      if (!fallBack) return null;
      this.#fallBack(`${way.label} did not answer, so the site plays on its own.`, way);
      return null;
    }
    return {
      text: answer.text,
      way: way.id,
      ...(answer.model ? { model: answer.model } : {}),
      ...(answer.data !== undefined ? { data: answer.data } : {}),
    };
  }

  async #detect() {
    await Promise.all(this.#all.map(async (way) => {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const late = new Promise((_, reject) => { timer = setTimeout(reject, DETECT_TIMEOUT_MS); });
      try {
        await Promise.race([way.detect(() => this.#wayChanged(way)), late]);
      } catch {
        way.status = 'absent';
      } finally {
        clearTimeout(timer);
      }
    }));
    if (this.#current.id === 'own') {
      this.#current = this.#all.find((way) => way.status === 'ready') ?? this.#current;
    }
    this.#changed();
  }

  /**
   * A way changed on its own (a wallet's link notice): the current way that stops being ready
   * hands over to own mode.
   *
   * @param {Way} way
   */
  #wayChanged(way) {
    if (way === this.#current && way.status !== 'ready' && way.status !== 'connecting') {
      this.#fallBack(`${way.label} is no longer connected, so the site plays on its own.`);
      return;
    }
    this.#changed();
  }

  /**
   * Make own mode current (unless `failed` is no longer the current way) and say why.
   *
   * @param {string} notice
   * @param {Way} [failed] the way that said no
   */
  #fallBack(notice, failed) {
    if (!failed || failed === this.#current) this.#current = this.#all[this.#all.length - 1];
    this.notice = notice;
    this.#changed();
  }

  #changed() {
    for (const listener of [...this.#listeners]) {
      try {
        listener(this);
      } catch (error) {
        queueMicrotask(() => { throw error; });
      }
    }
  }
}

/**
 * A way's label inside a sentence: "Your …" and "The …" read "your …", "the …" ("AI Wallet" stays).
 *
 * @param {string} label
 * @returns {string}
 */
export function inSentence(label) {
  return label.replace(/^(Your|The) /, (word) => word.toLowerCase());
}
