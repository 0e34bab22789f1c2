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
 * It speaks OpenAI's chat completions format to the relay: wallet chat messages go out as
 * OpenAI messages, and the relay's event stream (passed through from the model server as it
 * comes) is read back into the wallet's events: text deltas, tool calls, the finish reason.
 */
(() => {
  'use strict';

  const element = document.getElementById('testwallet-relay');
  if (!element || '__testwalletRelay' in window) return;
  /** @type {{ chat: string, transcribe: string | null, token: string, csrf: string, model: string, modelName: string, scripted: boolean }} */
  let config;
  try {
    config = JSON.parse(element.textContent ?? '');
  } catch {
    return;
  }
  if (!config || typeof config.chat !== 'string') return;

  // What the page could replace later is read now.
  const send = window.fetch.bind(window);

  /** The wallet's finish reasons for OpenAI's (wallet-provider.md, "Shared types"). */
  const FINISH = /** @type {Record<string, string>} */ ({
    stop: 'stop', length: 'length', tool_calls: 'toolCalls', function_call: 'toolCalls', content_filter: 'contentFilter',
  });

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
   * The OpenAI message for a wallet chat message.
   *
   * @param {any} message
   */
  function toOpenAI(message) {
    const content = Array.isArray(message?.content)
      ? message.content.map((/** @type {any} */ part) => (part?.type === 'image'
        ? { type: 'image_url', image_url: { url: String(part.url) } }
        : { type: 'text', text: String(part?.text ?? '') }))
      : String(message?.content ?? '');
    if (message?.role === 'tool') {
      return { role: 'tool', tool_call_id: String(message.toolCallId), content };
    }
    if (message?.role === 'assistant' && Array.isArray(message.toolCalls) && message.toolCalls.length) {
      return {
        role: 'assistant',
        content,
        tool_calls: message.toolCalls.map((/** @type {any} */ call) => ({
          id: String(call.id), type: 'function', function: { name: String(call.name), arguments: JSON.stringify(call.arguments ?? {}) },
        })),
      };
    }
    return { role: String(message?.role), content };
  }

  /**
   * The OpenAI request for a wallet `chat`'s params.
   *
   * @param {any} params
   * @param {boolean} stream
   */
  function chatRequest(params, stream) {
    /** @type {Record<string, unknown>} */
    const body = { messages: params.messages.map(toOpenAI), stream };
    if (Array.isArray(params.tools) && params.tools.length) {
      body.tools = params.tools.map((/** @type {any} */ tool) => ({
        type: 'function',
        function: { name: String(tool.name), description: String(tool.description ?? ''), parameters: tool.inputSchema ?? { type: 'object' } },
      }));
    }
    const options = params.options ?? {};
    if (Number.isInteger(options.maxTokens)) body.max_tokens = options.maxTokens;
    if (typeof options.temperature === 'number') body.temperature = options.temperature;
    if (typeof options.topP === 'number') body.top_p = options.topP;
    if (Array.isArray(options.stop)) body.stop = options.stop;
    const choice = options.toolChoice;
    if (typeof choice === 'string') body.tool_choice = choice;
    else if (choice && typeof choice.name === 'string') body.tool_choice = { type: 'function', function: { name: choice.name } };
    return body;
  }

  /**
   * The `data:` payloads of an event stream, parsed, as they arrive.
   *
   * @param {ReadableStream<Uint8Array>} body
   */
  async function* dataOf(body) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        const events = buffer.split(/\r?\n\r?\n/);
        buffer = events.pop() ?? '';
        for (const event of events) {
          const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
          if (!data || data === '[DONE]') continue;
          try {
            yield JSON.parse(data);
          } catch {
            // not JSON: a comment or keep-alive of some server, skipped
          }
        }
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
    const response = await post(config.chat, chatRequest(params, true), signal);
    if (!response.body) throw new RelayError('The relay answered without a body', 502);
    let content = '';
    let finish = 'stop';
    let model = config.modelName;
    /** @type {any} */
    let usage;
    /** @type {{ id: string, name: string, arguments: string }[]} */
    const calls = [];
    for await (const chunk of dataOf(response.body)) {
      if (chunk?.error) {
        throw new RelayError(String(chunk.error.message ?? 'The model server failed'), Number(chunk.error.status) || 502);
      }
      if (typeof chunk?.model === 'string' && chunk.model) model = chunk.model;
      if (chunk?.usage) usage = chunk.usage;
      const choice = chunk?.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content) {
        content += delta.content;
        yield { kind: 'text', delta: delta.content };
      }
      for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        const at = Number.isInteger(part.index) ? part.index : calls.length;
        calls[at] ??= { id: '', name: '', arguments: '' };
        if (part.id) calls[at].id = String(part.id);
        if (part.function?.name) calls[at].name += String(part.function.name);
        if (part.function?.arguments) calls[at].arguments += String(part.function.arguments);
      }
      if (choice.finish_reason) finish = FINISH[choice.finish_reason] ?? 'stop';
    }
    /** @type {any} */
    const message = { role: 'assistant', content };
    const toolCalls = calls.filter(Boolean).map((call, index) => ({
      id: call.id || `call_${index}`, name: call.name, arguments: parseArguments(call.arguments),
    }));
    if (toolCalls.length) {
      message.toolCalls = toolCalls;
      finish = 'toolCalls';
    }
    /** @type {any} */
    const result = { message, finishReason: finish, model };
    if (usage && Number.isFinite(usage.prompt_tokens) && Number.isFinite(usage.completion_tokens)) {
      const cached = Number(usage.prompt_tokens_details?.cached_tokens) || 0;
      result.usage = { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, cachedInputTokens: cached };
    }
    return result;
  }

  /**
   * A tool call's arguments as an object: `{}` for an empty string, an error for anything else.
   *
   * @param {string} text
   */
  function parseArguments(text) {
    if (!text.trim()) return {};
    try {
      const parsed = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      // fall through
    }
    throw new RelayError('The model asked for a tool with arguments that are not a JSON object', 502);
  }

  /**
   * Answer `text.generate` (BYOA) through the relay, not streamed: resolves with the text.
   *
   * @param {{ messages: { role: string, content: string }[] }} input
   * @param {{ maxTokens?: number, choices?: string[] }} params
   * @returns {Promise<string>}
   */
  async function generate(input, params) {
    const messages = [...input.messages];
    if (Array.isArray(params.choices) && params.choices.length) {
      messages.unshift({ role: 'system', content: `Answer with exactly one of: ${params.choices.join(', ')}` });
    }
    /** @type {Record<string, unknown>} */
    const body = { messages, stream: false };
    if (Number.isInteger(params.maxTokens)) body.max_tokens = params.maxTokens;
    const answer = await (await post(config.chat, body)).json().catch(() => null);
    const text = answer?.choices?.[0]?.message?.content;
    if (typeof text !== 'string') throw new RelayError('The model server\'s answer has no text', 502);
    return text;
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
