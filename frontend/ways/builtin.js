// @ts-check
/**
 * The browser's built-in model: Chrome's Prompt API, the `LanguageModel` global, as the Web
 * Machine Learning CG draft (webmachinelearning.github.io/prompt-api) and MDN describe it for
 * Chrome 138 and later:
 *
 * - `LanguageModel.availability(options)` -> 'unavailable' | 'downloadable' | 'downloading' | 'available'
 * - `LanguageModel.create({ ...options, initialPrompts, monitor(m), signal })`; the monitor's
 *   `downloadprogress` events carry `loaded` from 0 to 1. A download needs a click.
 * - `session.prompt(input, { signal, responseConstraint })` and `session.promptStreaming(...)`
 *   (a ReadableStream of separate pieces of text, to be joined); `session.destroy()`.
 * - A `system` message is allowed only in `initialPrompts`; `prompt` takes the other messages.
 *
 * Older shapes (`window.ai.languageModel`, `capabilities()`) are not supported. The same options
 * go to `availability` and `create`, as the API asks.
 *
 * Mapping: `choices` -> `responseConstraint` (a JSON Schema string enum; the answer is JSON and is
 * read back as the string); `maxTokens`, which the API lacks -> the text is cut at about four
 * characters a token and the generation stopped. One model, so `model` is ignored.
 */

import { abortable } from './messages.js';

/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').TextMessage} TextMessage */

/**
 * @typedef {object} PromptSession The part of a `LanguageModel` session the way uses.
 * @property {(input: unknown, options?: object) => Promise<string>} prompt
 * @property {(input: unknown, options?: object) => ReadableStream<string>} promptStreaming
 * @property {() => void} destroy
 */
/**
 * @typedef {object} LanguageModelApi The part of the `LanguageModel` global the way uses.
 * @property {(options?: object) => Promise<string>} availability
 * @property {(options?: object) => Promise<PromptSession>} create
 */

/** Characters per token when cutting an answer at `maxTokens` (the API has no such limit). */
export const CHARS_PER_TOKEN = 4;

/**
 * Return the built-in model way.
 *
 * @param {{ api?: LanguageModelApi | null, languages?: string[] }} [options] `api` defaults to the
 *   `LanguageModel` global; `languages` are the ones the page writes and reads (default `['en']`).
 * @returns {Way}
 */
export function builtinWay({ api = /** @type {any} */ (globalThis).LanguageModel ?? null, languages = ['en'] } = {}) {
  const expected = {
    expectedInputs: [{ type: 'text', languages }],
    expectedOutputs: [{ type: 'text', languages }],
  };
  /** @type {PromptSession | null} kept open so that the model stays loaded between turns */
  let keeper = null;

  /** @type {Way} */
  const way = {
    id: 'builtin',
    label: 'The AI built into this browser',
    streams: true,
    status: 'absent',
    detail: '',
    models: [],
    async detect() {
      const availability = await availabilityOf(api, expected);
      way.status = availability === 'available' ? 'ready'
        : availability === 'downloadable' || availability === 'downloading' ? 'offered' : 'absent';
      way.detail = way.status === 'offered' ? 'The model is downloaded once, on your click.' : '';
      return way.status;
    },
    async connect({ signal, onProgress } = {}) {
      if (!api || way.status === 'absent') return false;
      if (keeper) return true;
      way.status = 'connecting';
      try {
        keeper = await api.create({
          ...expected,
          signal,
          monitor(/** @type {EventTarget} */ monitor) {
            monitor.addEventListener('downloadprogress', (event) => {
              const loaded = Number(/** @type {any} */ (event).loaded);
              if (Number.isFinite(loaded)) onProgress?.(Math.min(1, Math.max(0, loaded)));
            });
          },
        });
      } catch {
        way.status = 'offered';
        return false;
      }
      way.status = 'ready';
      way.detail = '';
      return true;
    },
    async generate({ messages, choices, maxTokens, signal, onText }) {
      if (!api || way.status !== 'ready') return null;
      const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
      const rest = messages.filter((m) => m.role !== 'system');
      const session = await abortable(api.create({
        ...expected,
        ...(system ? { initialPrompts: [{ role: 'system', content: system }] } : {}),
        signal,
      }), signal);
      try {
        if (choices && choices.length > 0) {
          const raw = await session.prompt(rest, {
            signal,
            responseConstraint: { type: 'string', enum: choices },
          });
          return { text: readConstrained(raw) };
        }
        const limit = maxTokens ? maxTokens * CHARS_PER_TOKEN : Infinity;
        return { text: await readStream(session.promptStreaming(rest, { signal }), limit, signal, onText) };
      } finally {
        session.destroy();
      }
    },
  };
  return way;
}

/**
 * @param {LanguageModelApi | null} api
 * @param {object} options
 * @returns {Promise<string>}
 */
async function availabilityOf(api, options) {
  if (!api || typeof api.availability !== 'function') return 'unavailable';
  try {
    return String(await api.availability(options));
  } catch {
    return 'unavailable';
  }
}

/**
 * The string a JSON-constrained answer holds; the raw text when it is not JSON.
 *
 * @param {string} raw
 */
function readConstrained(raw) {
  try {
    const value = JSON.parse(raw);
    return typeof value === 'string' ? value : String(raw);
  } catch {
    return String(raw);
  }
}

/**
 * Join a stream's pieces, passing each to `onText`, until it ends or `limit` characters.
 *
 * @param {ReadableStream<string>} stream
 * @param {number} limit
 * @param {AbortSignal | undefined} signal
 * @param {((delta: string) => void) | undefined} onText
 */
async function readStream(stream, limit, signal, onText) {
  const reader = stream.getReader();
  let text = '';
  try {
    while (text.length < limit) {
      const { value, done } = await reader.read();
      if (done) break;
      if (signal?.aborted) throw signal.reason;
      const piece = String(value).slice(0, limit - text.length);
      text += piece;
      if (piece) onText?.(piece);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (signal?.aborted) throw signal.reason;
  return text;
}
