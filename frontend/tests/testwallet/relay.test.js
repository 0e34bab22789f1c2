// @ts-check
// The stand-ins' relay script (testwallet/relay.js), run as the classic script it is in a fresh
// context with a fake page: it sends the site's relay what the page asked, as it is, and reads the
// wallet's events back (JSON Lines); the relay does the model's format (tests/testwallet/relay/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import vm from 'node:vm';

const SOURCE = readFileSync(new URL('../../testwallet/relay.js', import.meta.url), 'utf8');
const CONFIG = {
  chat: '/testwallet/relay/chat', generate: '/testwallet/relay/generate', transcribe: '/testwallet/relay/transcribe', token: 'relay-token', csrf: 'csrf-token',
  model: 'llama3.2 at 127.0.0.1:11434', modelName: 'llama3.2', scripted: false,
};

/**
 * Run relay.js on a page whose relay answers each POST with the next of `answers`.
 *
 * @param {(Response | (() => Response))[]} answers
 * @param {object | null} [config]
 */
function pageWithRelay(answers, config = CONFIG) {
  /** @type {{ url: string, init: any }[]} */
  const sent = [];
  const context = vm.createContext({
    TextDecoder,
    document: { getElementById: (/** @type {string} */ id) => (id === 'testwallet-relay' && config ? { textContent: JSON.stringify(config) } : null) },
    fetch: async (/** @type {string} */ url, /** @type {any} */ init) => {
      sent.push({ url, init });
      const next = answers.shift();
      if (!next) throw new TypeError('no answer left');
      return typeof next === 'function' ? next() : next;
    },
  });
  context.window = context;
  vm.runInContext(SOURCE, context);
  return { relay: context.__testwalletRelay, sent };
}

/** A JSON Lines Response whose body arrives in exactly these pieces. @param {string[]} pieces */
function eventLines(pieces) {
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'application/x-ndjson' } });
}

/** A copy made in this realm: objects from the script's context have its own prototypes. @param {unknown} value */
const plain = (value) => JSON.parse(JSON.stringify(value));

/** One line of the relay's answer. @param {object} data */
const line = (data) => `${JSON.stringify(data)}\n`;
const RESULT = { message: { role: 'assistant', content: '' }, finishReason: 'stop' };

/** Run a relay chat to its end; return the events it yielded and its result. @param {any} running */
async function drain(running) {
  const events = [];
  for (;;) {
    const step = await running.next();
    if (step.done) return { events, result: step.value };
    events.push(step.value);
  }
}

describe('testwallet relay.js', () => {
  it('should define nothing on a page without relay settings', () => {
    const { relay } = pageWithRelay([], null);
    assert.equal(relay, undefined);
  });

  it('should send a wallet chat as the page gave it, with the session tokens', async () => {
    const { relay, sent } = pageWithRelay([eventLines([line({ kind: 'result', result: RESULT })])]);
    const params = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'data:image/png;base64,AA==' }] },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'search_books', arguments: { mood: 'calm' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'search_books', content: '1 book(s)' },
      ],
      tools: [{ name: 'search_books', description: 'Find books.', inputSchema: { type: 'object' } }],
      options: { maxTokens: 50, toolChoice: { name: 'search_books' }, temperature: 0.2 },
    };
    await drain(relay.chat(params, new AbortController().signal));
    const [{ url, init }] = sent;
    assert.equal(url, '/testwallet/relay/chat');
    assert.equal(init.headers['X-Testwallet-Token'], 'relay-token');
    assert.equal(init.headers['X-CSRFToken'], 'csrf-token');
    assert.deepEqual(JSON.parse(init.body), params);
  });

  it('should yield each text event as its line arrives, and return the result', async () => {
    const result = {
      message: { role: 'assistant', content: 'Looking now.', toolCalls: [{ id: 'call_9', name: 'search_books', arguments: { query: 'dune' } }] },
      finishReason: 'toolCalls',
      model: 'llama3.2:3b',
      usage: { inputTokens: 30, outputTokens: 9, cachedInputTokens: 0 },
    };
    const whole = [line({ kind: 'text', delta: 'Looking ' }), line({ kind: 'text', delta: 'now.' }), line({ kind: 'result', result })].join('');
    // Cut anywhere: mid-line, mid-JSON, right after a newline.
    const cut = whole.indexOf('\n') + 1;
    const pieces = [whole.slice(0, 9), whole.slice(9, cut), whole.slice(cut, cut + 1), whole.slice(cut + 1)];
    const { relay } = pageWithRelay([eventLines(pieces)]);
    const { events, result: got } = await drain(relay.chat({ messages: [{ role: 'user', content: 'dune' }] }, new AbortController().signal));
    assert.deepEqual(plain(events), [{ kind: 'text', delta: 'Looking ' }, { kind: 'text', delta: 'now.' }]);
    assert.deepEqual(plain(got), result);
  });

  it('should name the relay\'s model when the answer names none', async () => {
    const { relay } = pageWithRelay([eventLines([line({ kind: 'result', result: RESULT })])]);
    const { result } = await drain(relay.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal));
    assert.equal(result.model, 'llama3.2');
  });

  it('should fail with the relay\'s status and words when it refuses', async () => {
    const refusal = new Response(JSON.stringify({ error: { message: 'The model server took longer than 3 s to answer', status: 504 } }), { status: 504 });
    const { relay } = pageWithRelay([refusal]);
    await assert.rejects(drain(relay.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal)), {
      name: 'RelayError', status: 504, message: 'The model server took longer than 3 s to answer',
    });
  });

  it('should fail with an error event that arrives mid-stream, after the text before it', async () => {
    const stream = eventLines([line({ kind: 'text', delta: 'Par' }), line({ kind: 'error', status: 504, message: 'broke off' })]);
    const { relay } = pageWithRelay([stream]);
    const running = relay.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal);
    assert.deepEqual(plain((await running.next()).value), { kind: 'text', delta: 'Par' });
    await assert.rejects(running.next(), { name: 'RelayError', status: 504, message: 'broke off' });
  });

  it('should fail when the answer ends with no result', async () => {
    const { relay } = pageWithRelay([eventLines([line({ kind: 'text', delta: 'Par' })])]);
    await assert.rejects(drain(relay.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal)), {
      name: 'RelayError', status: 502, message: 'The relay ended the answer without a result',
    });
  });

  it('should send text.generate\'s input and params as they are, and resolve with the text', async () => {
    const { relay, sent } = pageWithRelay([new Response(JSON.stringify({ text: 'yes' }))]);
    const input = { messages: [{ role: 'user', content: 'Is it alive?' }] };
    const params = { maxTokens: 5, choices: ['yes', 'no'] };
    assert.equal(await relay.generate(input, params), 'yes');
    assert.equal(sent[0].url, '/testwallet/relay/generate');
    assert.deepEqual(JSON.parse(sent[0].init.body), { input, params });
  });

  it('should fail text.generate when the relay\'s answer has no text', async () => {
    const { relay } = pageWithRelay([new Response(JSON.stringify({ choices: [] }))]);
    await assert.rejects(relay.generate({ messages: [{ role: 'user', content: 'hi' }] }, {}), {
      name: 'RelayError', status: 502, message: 'The relay\'s answer has no text',
    });
  });

  it('should refuse to transcribe when no transcription server is named', async () => {
    const { relay, sent } = pageWithRelay([], { ...CONFIG, transcribe: null });
    assert.equal(relay.transcribes, false);
    await assert.rejects(relay.transcribe({ audio: { mime: 'audio/wav', base64: '' } }, {}), { name: 'RelayError', status: 404 });
    assert.deepEqual(sent, []);
  });
});
