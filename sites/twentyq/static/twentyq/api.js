// @ts-check
/**
 * The Twenty Questions server, as the page calls it (/work/helpers/TWENTYQ_API.md is the
 * contract; sites/twentyq/views.py the code): JSON POSTs with Django's CSRF token, and the direct
 * link's move as a server-sent event stream read from a fetch, so that Stop can abort it.
 */

import { csrfToken } from '../byoa/csrf.js';

/**
 * @typedef {object} Answer A JSON answer of the server.
 * @property {number} status The HTTP status (0 when the server could not be reached).
 * @property {any} body The parsed body: `{ game, ... }`, or `{ error, message, game }`.
 */

/**
 * POST `body` as JSON to `url`; resolve with the status and the parsed answer, never reject
 * except with an abort's reason.
 *
 * @param {string} url
 * @param {object} body
 * @param {AbortSignal} [signal]
 * @returns {Promise<Answer>}
 */
export async function post(url, body, signal) {
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return { status: 0, body: { error: 'network', message: 'The site could not be reached. Try again.' } };
  }
  const parsed = await response.json().catch(() => null);
  if (parsed === null || typeof parsed !== 'object') {
    return { status: response.status, body: { error: 'bad-answer', message: `The site answered ${response.status}. Try again.` } };
  }
  return { status: response.status, body: parsed };
}

/** @returns {Record<string, string>} */
function jsonHeaders() {
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const token = csrfToken();
  if (token) headers['X-CSRFToken'] = token;
  return headers;
}

/**
 * @typedef {object} StreamHooks What the page does with each event of a streamed move.
 * @property {(models: string[]) => void} [onStart] The models the server calls, first the one that answers.
 * @property {(text: string) => void} [onText] Each piece of the answering model's text, in order.
 * @property {(reply: { model: string, answer: string | null, problem: string | null }) => void} [onCheck]
 *   The second model's outcome.
 */

/**
 * Run one move through the visitor's wallet over the direct link (POST `url`, read the events).
 * Resolves with the answering model's text and the last event's body (`{ game }` for `result`,
 * `{ error, message, game }` for `error`), or `null` when the stream broke off before its end.
 *
 * @param {string} url
 * @param {object} body
 * @param {AbortSignal | undefined} signal
 * @param {StreamHooks} hooks
 * @returns {Promise<{ text: string, last: any, status: number } | null>}
 */
export async function streamMove(url, body, signal, hooks) {
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { ...jsonHeaders(), Accept: 'text/event-stream' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch {
    if (signal?.aborted) throw signal.reason;
    return null;
  }
  if (!response.ok || !response.body || !String(response.headers.get('content-type')).startsWith('text/event-stream')) {
    const parsed = await response.json().catch(() => null);
    return { text: '', last: parsed ?? { error: 'bad-answer', message: `The site answered ${response.status}.` }, status: response.status };
  }
  let text = '';
  /** @type {string | null} */
  let answering = null;
  try {
    // The event reader loads with the first streamed move (only a visitor paired by link makes
    // one); failing to load it is a stream that broke off.
    const { readEventStream } = await import('../ways/event-stream.js');
    for await (const { event, data } of readEventStream(response.body)) {
      let payload;
      try {
        payload = JSON.parse(data);
      } catch {
        continue;
      }
      if (event === 'start') {
        const models = Array.isArray(payload?.models) ? payload.models.filter((/** @type {unknown} */ m) => typeof m === 'string') : [];
        answering = models[0] ?? null;
        hooks.onStart?.(models);
      } else if (event === 'delta' && typeof payload?.text === 'string') {
        // Only the answering model's text is shown as it streams; a check model's is not.
        if (answering !== null && payload.model != null && payload.model !== answering) continue;
        text += payload.text;
        hooks.onText?.(payload.text);
      } else if (event === 'reply') {
        hooks.onCheck?.(payload);
      } else if (event === 'result' || event === 'error') {
        return { text, last: payload, status: event === 'result' ? 200 : 422 };
      }
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return null;
  }
  if (signal?.aborted) throw signal.reason;
  return null;
}
