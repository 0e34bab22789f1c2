// @ts-check
/**
 * A stand-in for Chrome's built-in model: the `LanguageModel` global of the Prompt API, in the
 * shape frontend/ways/builtin.js follows (the Web Machine Learning CG draft as Chrome 138+ ships
 * it). It is not an AI: every answer comes from the test, or from the person at the keyboard.
 *
 * A classic script (no `import`/`export`): it runs as a Playwright init script or as a plain
 * `<script>` before the page's own scripts (`?testwallet=1` in DEBUG, sites/templates/base.html).
 * It replaces a `LanguageModel` the browser has (Chromium builds expose one whose model may never
 * be there): where it is injected, the stand-in is what was asked for.
 *
 * - `availability(options)`: 'unavailable' | 'downloadable' | 'downloading' | 'available'.
 * - `create({ initialPrompts, monitor, signal, expectedInputs, ... })`: when the model is not yet
 *   'available', `monitor`'s `downloadprogress` events go 0 -> 1 (`loaded`) and then it is.
 *   A `system` message anywhere but first in `initialPrompts` is a TypeError, as in the API.
 * - `prompt(input, { signal, responseConstraint })`, `promptStreaming(...)` (a ReadableStream of
 *   separate pieces), `destroy()`. A `system` role in `input` is a NotSupportedError.
 *
 * Who answers: with the Playwright binding `__testwalletLanguageModel` (tests/twentyq/conftest.py
 * installs it), the test: it gets `{ type: 'availability' }` and `{ type: 'prompt', initialPrompts,
 * input, responseConstraint, streaming }` and answers a string, `{ pieces: [...] }` or
 * `{ error: 'NotSupportedError', message? }` (the DOMException's name and message). Without it, a person: availability is 'downloadable', the
 * download takes about a second, and each prompt opens the test wallet's panel in the page
 * (panel.js, loaded before this script), showing the last message: the person types the answer
 * the model would give, or picks one of the allowed values as a button when the page constrains
 * the answer; Stop (or Escape) rejects the prompt with an AbortError.
 */
(() => {
  'use strict';

  const BINDING = '__testwalletLanguageModel';
  if (/** @type {any} */ (window).LanguageModel?.isTestStandIn) return;
  /**
   * The test wallet's panel in the page (panel.js, loaded before this script), where a person answers.
   * @type {{ ask: (question: object) => Promise<{ action: string, text: string }> } | null}
   */
  const PANEL = Reflect.get(window, '__testwalletPanel') ?? null;

  /** @returns {((message: object) => Promise<any>) | null} */
  const binding = () => {
    const send = /** @type {any} */ (window)[BINDING];
    return typeof send === 'function' ? send : null;
  };

  let availability = 'downloadable';
  let sessions = 0;

  /** @param {AbortSignal | undefined} signal */
  const checkSignal = (signal) => {
    if (signal?.aborted) throw signal.reason;
  };

  /** @param {unknown} prompts */
  function checkInitialPrompts(prompts) {
    if (prompts === undefined) return [];
    if (!Array.isArray(prompts)) throw new TypeError('initialPrompts must be a sequence of messages');
    prompts.forEach((message, index) => {
      if (message?.role === 'system' && index !== 0) throw new TypeError('A system prompt must be the first initial prompt');
    });
    return prompts.map((message) => ({ role: String(message.role), content: String(message.content) }));
  }

  /** @param {unknown} input */
  function checkInput(input) {
    const messages = typeof input === 'string' ? [{ role: 'user', content: input }] : input;
    if (!Array.isArray(messages)) throw new TypeError('The input must be a string or a sequence of messages');
    if (messages.some((message) => message?.role === 'system')) {
      throw new DOMException('A system message can only be an initial prompt', 'NotSupportedError');
    }
    return messages.map((message) => ({ role: String(message.role ?? 'user'), content: String(message.content) }));
  }

  /**
   * Ask the test (or the person) for an answer; resolve with its pieces.
   * @param {object} message
   * @returns {Promise<string[]>}
   */
  async function answer(message) {
    const send = binding();
    if (send) {
      const reply = await send(message);
      if (reply && typeof reply === 'object' && typeof reply.error === 'string') {
        throw new DOMException(typeof reply.message === 'string' ? reply.message : 'The test model failed', reply.error);
      }
      if (reply && typeof reply === 'object' && Array.isArray(reply.pieces)) return reply.pieces.map(String);
      return [String(reply ?? '')];
    }
    if (PANEL === null) throw new DOMException('The stand-in has no panel to ask in: load panel.js before languagemodel.js', 'NotSupportedError');
    const { input, responseConstraint } = /** @type {any} */ (message);
    const last = input.at(-1)?.content ?? '';
    const allowed = Array.isArray(responseConstraint?.enum) ? /** @type {unknown[]} */ (responseConstraint.enum).map(String) : null;
    const lines = ['You play Chrome\'s built-in model here (this stand-in is not an AI). The page asks:', String(last).slice(-600)];
    const { action, text } = await PANEL.ask(allowed
      ? {
        title: 'Answer as the built-in model',
        lines: [...lines, 'The page allows only these answers:'],
        actions: allowed.map((/** @type {string} */ value) => ({ label: value, value: `choice:${value}` })),
        cancel: 'stop',
      }
      : {
        title: 'Answer as the built-in model',
        lines,
        field: { label: 'The model\'s answer' },
        actions: [{ label: 'Send to the page', value: 'send' }, { label: 'Stop', value: 'stop' }],
        cancel: 'stop',
      });
    if (action === 'stop') throw new DOMException('The person stopped the answer', 'AbortError');
    return [allowed ? JSON.stringify(action.slice('choice:'.length)) : text];
  }

  class LanguageModelSession {
    /** @param {{ role: string, content: string }[]} initialPrompts */
    constructor(initialPrompts) {
      this.initialPrompts = initialPrompts;
      this.destroyed = false;
    }

    /**
     * @param {unknown} input
     * @param {{ signal?: AbortSignal, responseConstraint?: unknown }} [options]
     */
    async prompt(input, options = {}) {
      const pieces = await this.#ask(input, options, false);
      return pieces.join('');
    }

    /**
     * @param {unknown} input
     * @param {{ signal?: AbortSignal, responseConstraint?: unknown }} [options]
     */
    promptStreaming(input, options = {}) {
      const asking = this.#ask(input, options, true);
      /** @type {string[] | null} */
      let queue = null;
      return new ReadableStream({
        async pull(controller) {
          try {
            queue ??= [...(await asking)];
            checkSignal(options.signal);
            const next = queue.shift();
            if (next === undefined) controller.close();
            else controller.enqueue(next);
          } catch (error) {
            controller.error(error);
          }
        },
      });
    }

    destroy() {
      this.destroyed = true;
    }

    /**
     * @param {unknown} input
     * @param {{ signal?: AbortSignal, responseConstraint?: unknown }} options
     * @param {boolean} streaming
     */
    async #ask(input, options, streaming) {
      if (this.destroyed) throw new DOMException('The session was destroyed', 'InvalidStateError');
      checkSignal(options.signal);
      const messages = checkInput(input);
      const pieces = await answer({
        type: 'prompt', initialPrompts: this.initialPrompts, input: messages,
        responseConstraint: options.responseConstraint ?? null, streaming,
      });
      checkSignal(options.signal);
      return pieces;
    }
  }

  const LanguageModel = Object.freeze({
    /** Marks the stand-in, so that a second injection keeps the first. */
    isTestStandIn: true,
    /** @param {object} [_options] */
    async availability(_options) {
      const send = binding();
      if (send) return String(await send({ type: 'availability' }));
      return availability;
    },
    /** @param {{ initialPrompts?: unknown, monitor?: (m: EventTarget) => void, signal?: AbortSignal }} [options] */
    async create(options = {}) {
      checkSignal(options.signal);
      const initialPrompts = checkInitialPrompts(options.initialPrompts);
      const state = await LanguageModel.availability(options);
      if (state === 'unavailable') throw new DOMException('The model is not available', 'NotSupportedError');
      const monitor = new EventTarget();
      options.monitor?.(monitor);
      if (state !== 'available') {
        for (const loaded of [0, 0.25, 0.5, 0.75, 1]) {
          await new Promise((resolve) => setTimeout(resolve, binding() ? 0 : 200));
          checkSignal(options.signal);
          monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
        }
        availability = 'available';
        binding()?.({ type: 'downloaded' });
      }
      sessions += 1;
      return new LanguageModelSession(initialPrompts);
    },
  });

  Object.defineProperty(window, 'LanguageModel', { value: LanguageModel, configurable: true, writable: false });
  Object.defineProperty(window, '__testwalletLanguageModelSessions', { get: () => sessions, configurable: true });
})();
