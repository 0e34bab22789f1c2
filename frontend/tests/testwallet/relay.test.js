// @ts-check
// The stand-ins' relay script (testwallet/relay.js), run as the classic script it is in a fresh
// context with a fake page: what it sends the site's relay, and how it reads OpenAI's streams back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import vm from 'node:vm';

const SOURCE = readFileSync(new URL('../../testwallet/relay.js', import.meta.url), 'utf8');
const CONFIG = {
  chat: '/testwallet/relay/chat', transcribe: '/testwallet/relay/transcribe', token: 'relay-token', csrf: 'csrf-token',
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

/** An event-stream Response whose body arrives in exactly these pieces. @param {string[]} pieces */
function eventStream(pieces) {
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

/** A copy made in this realm: objects from the script's context have its own prototypes. @param {unknown} value */
const plain = (value) => JSON.parse(JSON.stringify(value));

/** @param {object} data */
const event = (data) => `data: ${JSON.stringify(data)}\n\n`;

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

  it('should send a wallet chat as an OpenAI request with the session tokens', async () => {
    const { relay, sent } = pageWithRelay([eventStream([event({ choices: [{ delta: {}, finish_reason: 'stop' }] })])]);
    const params = {
      messages: [
        { role: 'system', content: 'Be brief.' },
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
    assert.deepEqual(JSON.parse(init.body), {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search_books', arguments: '{"mood":"calm"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '1 book(s)' },
      ],
      stream: true,
      tools: [{ type: 'function', function: { name: 'search_books', description: 'Find books.', parameters: { type: 'object' } } }],
      max_tokens: 50,
      temperature: 0.2,
      tool_choice: { type: 'function', function: { name: 'search_books' } },
    });
  });

  it('should stream text and assemble tool calls split across chunks and events', async () => {
    const whole = [
      event({ model: 'llama3.2:3b', choices: [{ delta: { content: 'Looking ' } }] }),
      event({ choices: [{ delta: { content: 'now.' } }] }),
      event({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_9', function: { name: 'search_books', arguments: '{"qu' } }] } }] }),
      event({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: 'ery": "dune"}' } }] } }] }),
      event({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }),
      event({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 9 } }),
      'data: [DONE]\n\n',
    ].join('');
    // Cut anywhere: mid-event, mid-line, mid-JSON.
    const pieces = [whole.slice(0, 17), whole.slice(17, 140), whole.slice(140, 141), whole.slice(141)];
    const { relay } = pageWithRelay([eventStream(pieces)]);
    const { events, result } = await drain(relay.chat({ messages: [{ role: 'user', content: 'dune' }] }, new AbortController().signal));
    assert.deepEqual(plain(events), [{ kind: 'text', delta: 'Looking ' }, { kind: 'text', delta: 'now.' }]);
    assert.deepEqual(plain(result), {
      message: { role: 'assistant', content: 'Looking now.', toolCalls: [{ id: 'call_9', name: 'search_books', arguments: { query: 'dune' } }] },
      finishReason: 'toolCalls',
      model: 'llama3.2:3b',
      usage: { inputTokens: 30, outputTokens: 9, cachedInputTokens: 0 },
    });
  });

  it('should fail with the relay\'s status and words when it refuses', async () => {
    const refusal = new Response(JSON.stringify({ error: { message: 'The model server took longer than 3 s to answer', status: 504 } }), { status: 504 });
    const { relay } = pageWithRelay([refusal]);
    await assert.rejects(drain(relay.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal)), {
      name: 'RelayError', status: 504, message: 'The model server took longer than 3 s to answer',
    });
  });

  it('should fail with an error event that arrives mid-stream, after the text before it', async () => {
    const stream = eventStream([event({ choices: [{ delta: { content: 'Par' } }] }), event({ error: { message: 'broke off', status: 502 } })]);
    const { relay } = pageWithRelay([stream]);
    const running = relay.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal);
    assert.deepEqual(plain((await running.next()).value), { kind: 'text', delta: 'Par' });
    await assert.rejects(running.next(), { name: 'RelayError', status: 502, message: 'broke off' });
  });

  it('should refuse tool arguments that are not a JSON object', async () => {
    const stream = eventStream([event({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'search_books', arguments: '[1]' } }] } }] })]);
    const { relay } = pageWithRelay([stream]);
    await assert.rejects(drain(relay.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal)), {
      name: 'RelayError', message: 'The model asked for a tool with arguments that are not a JSON object',
    });
  });

  it('should answer text.generate unstreamed, with the choices told to the model', async () => {
    const answer = new Response(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'yes' } }] }));
    const { relay, sent } = pageWithRelay([answer]);
    const text = await relay.generate({ messages: [{ role: 'user', content: 'Is it alive?' }] }, { maxTokens: 5, choices: ['yes', 'no'] });
    assert.equal(text, 'yes');
    assert.deepEqual(JSON.parse(sent[0].init.body), {
      messages: [{ role: 'system', content: 'Answer with exactly one of: yes, no' }, { role: 'user', content: 'Is it alive?' }],
      stream: false,
      max_tokens: 5,
    });
  });

  it('should refuse to transcribe when no transcription server is named', async () => {
    const { relay, sent } = pageWithRelay([], { ...CONFIG, transcribe: null });
    assert.equal(relay.transcribes, false);
    await assert.rejects(relay.transcribe({ audio: { mime: 'audio/wav', base64: '' } }, {}), { name: 'RelayError', status: 404 });
    assert.deepEqual(sent, []);
  });
});
