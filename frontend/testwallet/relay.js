// @ts-check
/**
 * The by-hand stand-ins' way to a model: the site's DEBUG-only relay (testwallet/relay/), which
 * forwards to the OpenAI-compatible server the developer runs, or answers with a scripted player.
 *
 * A classic script, loaded by the base template right before aiwallet.js and byoa.js when
 * `?testwallet=1` is on. It reads what the template left in `<script id="testwallet-relay">`
 * (the relay's paths, this browser's relay token, the CSRF token, who answers) and leaves its
 * functions on `window.__testwalletRelay`, or nothing when the page has no relay (the stand-ins
 * then answer with their labelled echo). Tests driving the stand-ins through Playwright never
 * load it.
 *
 * It only posts and reads: a wallet chat's params go to the relay as the page gave them, and the
 * relay answers the wallet's events, one JSON object a line (JSON Lines) as the model streams:
 * `{ kind: 'text', delta }`, then `{ kind: 'result', result }` or `{ kind: 'error', status,
 * message }`; `text.generate`'s input and params go as they are, and `{ text }` comes back. The
 * relay (testwallet/relay/wallet.py) turns them into the model's requests, and its answers back.
 */
(() => {
  'use strict';

  const element = document.getElementById('testwallet-relay');
  if (!element || '__testwalletRelay' in window) return;
  /** @type {{ chat: string, generate: string, transcribe: string | null, token: string, csrf: string, model: string, modelName: string, scripted: boolean }} */
  let config;
  try {
    config = JSON.parse(element.textContent ?? '');
  } catch {
    return;
  }
  if (!config || typeof config.chat !== 'string') return;

  // What the page could replace later is read now.
  const send = window.fetch.bind(window);

  /**
   * Raised (as a rejection) when the relay or the model server refuses or fails.
   */
  class RelayError extends Error {
    /** @param {string} message @param {number} status */
    constructor(message, status) {
      super(message);
      this.name = 'RelayError';
      this.status = status;
    }
  }

  /**
   * POST JSON to the relay with this session's tokens.
   *
   * @param {string} url
   * @param {object} body
   * @param {AbortSignal} [signal]
   */
  async function post(url, body, signal) {
    let response;
    try {
      response = await send(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Testwallet-Token': config.token,
          'X-CSRFToken': config.csrf,
        },
        body: JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new RelayError('The site\'s test-wallet relay could not be reached', 502);
    }
    if (!response.ok) {
      const answer = await response.json().catch(() => null);
      const message = typeof answer?.error?.message === 'string' ? answer.error.message : `The relay answered ${response.status}`;
      throw new RelayError(message, response.status);
    }
    return response;
  }

  /**
   * The JSON objects of a JSON Lines body, each as its line arrives.
   *
   * @param {ReadableStream<Uint8Array>} body
   */
  async function* linesOf(body) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) yield JSON.parse(line);
      }
    } finally {
      reader.releaseLock();
    }
  }

  /**
   * Run one wallet `chat` through the relay, streamed: yields `{ kind: 'text', delta }` events, and
   * returns the wallet's `ChatResponse`. Throws a RelayError when the relay or the model fails.
   *
   * @param {any} params
   * @param {AbortSignal} signal
   * @returns {AsyncGenerator<{ kind: 'text', delta: string }, any>}
   */
  async function* chat(params, signal) {
    const response = await post(config.chat, params, signal);
    if (!response.body) throw new RelayError('The relay answered without a body', 502);
    for await (const event of linesOf(response.body)) {
      if (event?.kind === 'text') yield { kind: 'text', delta: String(event.delta) };
      // The model the server named, else the relay's (a model server need not name one).
      else if (event?.kind === 'result') return { model: config.modelName, ...event.result };
      else if (event?.kind === 'error') throw new RelayError(String(event.message), Number(event.status) || 502);
    }
    throw new RelayError('The relay ended the answer without a result', 502);
  }

  /**
   * Answer `text.generate` (BYOA) through the relay, not streamed: resolves with the text.
   *
   * @param {{ messages: { role: string, content: string }[] }} input
   * @param {{ maxTokens?: number, choices?: string[] }} params
   * @returns {Promise<string>}
   */
  async function generate(input, params) {
    const answer = await (await post(config.generate, { input, params })).json().catch(() => null);
    if (typeof answer?.text !== 'string') throw new RelayError('The relay\'s answer has no text', 502);
    return answer.text;
  }

  /**
   * Answer `audio.transcribe` (BYOA) through the relay: resolves with the text heard.
   *
   * @param {{ audio: { mime: string, base64: string } }} input
   * @param {{ language?: string }} params
   * @returns {Promise<string>}
   */
  async function transcribe(input, params) {
    if (!config.transcribe) throw new RelayError('No transcription server is named', 404);
    const body = { audio: input.audio, ...(typeof params.language === 'string' ? { language: params.language } : {}) };
    const answer = await (await post(config.transcribe, body)).json().catch(() => null);
    if (typeof answer?.text !== 'string') throw new RelayError('The transcription server\'s answer has no text', 502);
    return answer.text;
  }

  Object.defineProperty(window, '__testwalletRelay', {
    value: Object.freeze({
      model: config.model,
      modelName: config.modelName,
      scripted: config.scripted,
      transcribes: Boolean(config.transcribe),
      chat,
      generate,
      transcribe,
    }),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
