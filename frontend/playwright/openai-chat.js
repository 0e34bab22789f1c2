// @ts-check
/**
 * The test AI Wallet's chats asked of an OpenAI-compatible model server, from Node: what
 * aiwallet-driver.js does when it answers from a model (`answerFrom(url)`, which the fixtures'
 * `testwalletCassette` option points at `python -m testwallet.cassette serve`).
 *
 * `chatRequest` builds the same body as relay.js's `chatRequest` (in the page) and
 * testwallet/_openai_chat.py's `wallet_chat_request` (pytest's driver): a cassette matches
 * requests as JSON, so a recording made from one replays to the others. relay.js is a classic
 * script for the page and cannot be imported here; tests/testwallet/test_openai_chat.py checks
 * this copy against the Python one.
 */

/** The wallet's finish reasons for OpenAI's (wallet-provider.md, "Shared types"). */
const FINISH = /** @type {Record<string, string>} */ ({
  stop: 'stop', length: 'length', tool_calls: 'toolCalls', function_call: 'toolCalls', content_filter: 'contentFilter',
});

/** Raised when the model server refuses or fails; `status` 409 is a chat the cassette has no recording of. */
export class ModelServerError extends Error {
  /** @param {string} message @param {number} status */
  constructor(message, status) {
    super(message);
    this.name = 'ModelServerError';
    this.status = status;
  }
}

/**
 * The OpenAI message for a wallet chat message.
 *
 * @param {any} message
 */
function toOpenAI(message) {
  const content = Array.isArray(message?.content)
    ? message.content.map((/** @type {any} */ part) => (part?.type === 'image'
      ? { type: 'image_url', image_url: { url: String(part.url ?? '') } }
      : { type: 'text', text: String(part?.text ?? '') }))
    : String(message?.content ?? '');
  const role = String(message?.role ?? '');
  if (role === 'tool') return { role: 'tool', tool_call_id: String(message.toolCallId ?? ''), content };
  if (role === 'assistant' && Array.isArray(message.toolCalls) && message.toolCalls.length) {
    return {
      role: 'assistant',
      content,
      tool_calls: message.toolCalls.map((/** @type {any} */ call) => ({
        id: String(call.id ?? ''), type: 'function', function: { name: String(call.name ?? ''), arguments: JSON.stringify(call.arguments ?? {}) },
      })),
    };
  }
  return { role, content };
}

/**
 * The OpenAI request for a wallet `chat`'s params (without a model name: the server names it).
 *
 * @param {any} params
 * @param {boolean} stream
 * @returns {Record<string, unknown>}
 */
export function chatRequest(params, stream) {
  /** @type {Record<string, unknown>} */
  const body = { messages: (params?.messages ?? []).map(toOpenAI), stream };
  if (Array.isArray(params?.tools) && params.tools.length) {
    body.tools = params.tools.map((/** @type {any} */ tool) => ({
      type: 'function',
      function: { name: String(tool.name ?? ''), description: String(tool.description ?? ''), parameters: tool.inputSchema ?? { type: 'object' } },
    }));
  }
  const options = params?.options ?? {};
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
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of /** @type {AsyncIterable<Uint8Array>} */ (/** @type {unknown} */ (body))) {
    buffer += decoder.decode(chunk, { stream: true });
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
}

/**
 * Ask the model server at `url` (its /v1 base) one wallet chat, streamed: yields each text piece
 * as it comes, and returns the wallet's ChatResponse (`message`, `finishReason`, `model`, `usage`
 * when the server gave it). Throws a ModelServerError before the first piece when the server
 * refuses (409 and the cassette's message for a chat never recorded) or cannot be reached.
 *
 * @param {string} url
 * @param {any} params
 * @param {string} fallbackModel the model the result names when the server names none
 * @returns {AsyncGenerator<string, any>}
 */
export async function* askChat(url, params, fallbackModel) {
  let response;
  try {
    response = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(chatRequest(params, true)),
    });
  } catch (error) {
    throw new ModelServerError(`The model server at ${url} could not be reached (${/** @type {Error} */ (error).message})`, 502);
  }
  if (!response.ok || !response.body) {
    const answer = await response.json().catch(() => null);
    const message = typeof answer?.error?.message === 'string' ? answer.error.message : `The model server answered ${response.status}`;
    throw new ModelServerError(message, response.ok ? 502 : response.status);
  }
  let content = '';
  let finish = 'stop';
  let model = fallbackModel;
  /** @type {any} */
  let usage;
  /** @type {{ id: string, name: string, arguments: string }[]} */
  const calls = [];
  for await (const chunk of dataOf(response.body)) {
    if (chunk?.error) throw new ModelServerError(String(chunk.error.message ?? 'The model server failed'), Number(chunk.error.status) || 502);
    if (typeof chunk?.model === 'string' && chunk.model) model = chunk.model;
    if (chunk?.usage) usage = chunk.usage;
    const choice = chunk?.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content) {
      content += delta.content;
      yield delta.content;
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
  const toolCalls = calls.filter(Boolean).map((call, index) => ({ id: call.id || `call_${index}`, name: call.name, arguments: parseArguments(call.arguments) }));
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
  throw new ModelServerError('The model asked for a tool with arguments that are not a JSON object', 502);
}
