// @ts-check
/**
 * A chat transcript for a page's assistant: the visitor's questions, the answers as they stream,
 * what each tool did, and how a turn ended (answered, stopped or failed). Optional: a page may
 * render its own. Everything is set as text (text nodes and textContent), never as HTML, since
 * the words come from a model, a wallet or a tool.
 *
 *   import { Transcript } from '/static/ui/transcript.js';
 *   const transcript = new Transcript(document.querySelector('#transcript'), { status: document.querySelector('#activity') });
 *   const turn = transcript.ask('A calm book for tonight');
 *   // runConversation({ ..., onText: turn.append, onToolCall: (call) => turn.toolStarted(call),
 *   //   onToolResult: (call, _text, result) => turn.toolFinished(call, result) })
 *   turn.finish();            // or turn.finish(error) in the catch
 *
 * It renders in the light DOM of `container` with the classes `turn user` / `turn assistant` (and
 * `stopped` / `failed` once so ended), `who`, `tools` (an ordered list of the turn's steps), `tool`
 * (with `data-state` running, done or failed), `typing` (the dots shown until the first words
 * come) and `text`; frontend/ui/ui.css styles them under `.transcript`. Give the container
 * `aria-live="polite"` (or role="log") so screen readers hear the answers.
 */

import { answeredBy } from './answered-by.js';

/** @typedef {import('../aiconnect/types.js').ToolCall} ToolCall */
/** @typedef {'answered' | 'stopped' | 'failed'} TurnOutcome */
/** @typedef {(element: HTMLElement, text: string) => void} Format */
/** @typedef {(start: { providerName: string, model?: string }) => string} Who */

/**
 * How a turn that ended with `error` ended: `answered` without one, `stopped` when the visitor
 * stopped it (an `AbortError` from the page's signal, or the wallet's 499 "stopped in AI
 * Wallet"), `failed` for any other error. Errors are recognised by name and status, not
 * instanceof, as aiconnect-core.md says of `WalletRequestError`.
 *
 * @param {unknown} [error]
 * @returns {TurnOutcome}
 */
export function outcomeOf(error) {
  if (error === undefined || error === null) return 'answered';
  const { name, status } = /** @type {{ name?: unknown, status?: unknown }} */ (error);
  if (name === 'AbortError') return 'stopped';
  if (name === 'WalletRequestError' && status === 499) return 'stopped';
  return 'failed';
}

/** A transcript of question-and-answer turns, rendered into a container element. */
export class Transcript {
  #container;
  #status;
  #format;
  #who;

  /**
   * @param {HTMLElement} container Where the turns go, one after the other.
   * @param {{ status?: HTMLElement | null, format?: Format | null, who?: Who }} [options] `status`:
   *   an element (say `role="status"`) that shows what the open turn's latest tool is doing, and is
   *   emptied when the turn ends. `format`: draws an answer's whole text so far into its element, as
   *   reply-text.js's `drawReply` does (paragraphs, lists); without it the text is shown as it is.
   *   `who`: the words that name who answers a turn, from its chat's start (by default
   *   `answeredBy`'s, "Answered by Claude (claude-haiku-4-5)"); a page that knows more (a test
   *   wallet's scripted stand-in, not an AI) says so.
   */
  constructor(container, { status = null, format = null, who = answeredBy } = {}) {
    this.#container = container;
    this.#status = status;
    this.#format = format;
    this.#who = who;
  }

  /**
   * Add the visitor's words and an empty answer below them; return the answer's turn.
   *
   * @param {string} text
   * @returns {TranscriptTurn}
   */
  ask(text) {
    const document = this.#container.ownerDocument;
    const asked = document.createElement('div');
    asked.className = 'turn user';
    asked.textContent = text;
    const answer = new TranscriptTurn(document, this.#status, this.#format, this.#who);
    this.#container.append(asked, answer.element);
    return answer;
  }
}

/** One answer in a transcript: who answers, its tools, its streamed text, how it ended. */
export class TranscriptTurn {
  #who;
  #tools;
  #text;
  #status;
  #format;
  #name;
  /** @type {HTMLElement} */
  #typing;
  /** the answer's text so far, which `format` draws whole on each piece */
  #said = '';
  /** @type {Map<string, { item: HTMLElement, label: string, done: string }>} the tool items by call id */
  #calls = new Map();
  /** @type {Element} the last element this turn placed in the container: attachments go after it */
  #last;
  /** @type {TurnOutcome | null} */
  #outcome = null;

  /**
   * Made by `Transcript.ask`.
   *
   * @param {Document} document
   * @param {HTMLElement | null} status
   * @param {Format | null} [format]
   * @param {Who} [who] the words that name who answers
   */
  constructor(document, status, format = null, who = answeredBy) {
    this.#status = status;
    this.#format = format;
    this.#name = who;
    /** The turn's element, `div.turn.assistant`. */
    this.element = document.createElement('div');
    this.element.className = 'turn assistant';
    this.#who = document.createElement('span');
    this.#who.className = 'who';
    this.#tools = document.createElement('ol');
    this.#tools.className = 'tools';
    this.#tools.setAttribute('aria-label', 'Steps');
    this.#tools.hidden = true;
    // A formatted answer holds paragraphs and lists: a block of its own.
    this.#text = document.createElement(format ? 'div' : 'span');
    this.#text.className = format ? 'text formatted' : 'text';
    // Until the first words: a typing indicator where they will come (its words for screen readers).
    this.#typing = document.createElement('span');
    this.#typing.className = 'typing';
    const dots = document.createElement('span');
    dots.className = 'typing__dots';
    dots.setAttribute('aria-hidden', 'true');
    const words = document.createElement('span');
    words.className = 'visually-hidden';
    words.textContent = 'Writing the answer…';
    this.#typing.append(dots, words);
    this.element.append(this.#who, this.#tools, this.#text, this.#typing);
    this.#last = this.element;
    // Bound, so a page can pass them as hooks as they are (`onText: turn.append`).
    this.append = this.append.bind(this);
    this.showWho = this.showWho.bind(this);
  }

  /** How the turn ended, or `null` while it runs. */
  get outcome() {
    return this.#outcome;
  }

  /**
   * Add a piece of the answer's text, as text.
   *
   * @param {string} delta
   */
  append(delta) {
    if (String(delta) !== '') this.#typing.remove();
    if (!this.#format) {
      this.#text.append(String(delta));
      return;
    }
    this.#said += String(delta);
    this.#format(this.#text, this.#said);
  }

  /**
   * Say who answers (a chat's `onStart`), once a turn: a later start (the same turn's next chat,
   * after a tool) replaces the words, never adds to them.
   *
   * @param {{ providerName: string, model?: string }} start
   */
  showWho(start) {
    this.#who.textContent = this.#name(start);
  }

  /**
   * Show a tool call as a running step, in the turn and in the status element.
   *
   * @param {ToolCall} call
   * @param {string} [label] The words for it while it runs ("Looking for calm books…"); by
   *   default its name.
   * @param {string} [done] The step's words once it is done ("Searched: calm books"); by default
   *   `label`.
   */
  toolStarted(call, label = `Using the ${call.name} tool…`, done = label) {
    const item = this.element.ownerDocument.createElement('li');
    item.className = 'tool';
    item.dataset.state = 'running';
    item.textContent = label;
    this.#tools.append(item);
    this.#tools.hidden = false;
    this.#calls.set(call.id, { item, label, done });
    if (this.#status) this.#status.textContent = label;
  }

  /**
   * Show a tool call as done, or as failed when its result says so (`ToolResult.isError`).
   * A call this turn did not start is shown as started and finished at once.
   *
   * @param {ToolCall} call
   * @param {{ isError: boolean }} result
   */
  toolFinished(call, { isError }) {
    if (!this.#calls.has(call.id)) this.toolStarted(call);
    const { item, label, done } = /** @type {{ item: HTMLElement, label: string, done: string }} */ (this.#calls.get(call.id));
    item.dataset.state = isError ? 'failed' : 'done';
    item.textContent = isError ? `${label} (failed)` : done;
    if (this.#status?.textContent === label && isError) this.#status.textContent = item.textContent;
  }

  /**
   * Place an element right after this turn (and after what was attached before), such as the
   * cards a tool's structured result names.
   *
   * @param {Element} element
   */
  attach(element) {
    this.#last.after(element);
    this.#last = element;
  }

  /**
   * End the turn: answered without an error, else stopped or failed (see `outcomeOf`). Mark the
   * turn with that class, and any tool still running as failed; empty the status element.
   *
   * @param {unknown} [error]
   * @returns {TurnOutcome}
   */
  finish(error) {
    this.#outcome = outcomeOf(error);
    this.#typing.remove();
    if (this.#outcome !== 'answered') this.element.classList.add(this.#outcome);
    for (const [id, { item }] of this.#calls) {
      if (item.dataset.state === 'running') this.toolFinished({ id, name: '', arguments: {} }, { isError: true });
    }
    if (this.#status) this.#status.textContent = '';
    return this.#outcome;
  }
}
