// @ts-check
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { AiConnect } from '../../aiconnect/client.js';
import { aiWalletWay } from '../../ways/aiwallet.js';
import { builtinWay, CHARS_PER_TOKEN } from '../../ways/builtin.js';
import { WayChooser } from '../../ways/chooser.js';
import { readEventStream } from '../../ways/event-stream.js';
import { extensionWay } from '../../ways/extension.js';
import { linkWay } from '../../ways/link.js';
import { matchChoice, withChoices } from '../../ways/messages.js';
import { createFakeWallet, createFakeWindow, installWindow, waitForStatus } from '../helpers/fake-wallet.js';
import { fakeByoa, fakeLanguageModel } from './fakes.js';

/** @type {import('../../ways/types.js').TextMessage[]} */
const MESSAGES = [
  { role: 'system', content: 'You play Twenty Questions.' },
  { role: 'user', content: 'Is it alive?' },
];
const CHOICES = ['yes', 'no', 'sometimes'];
const never = () => {};

describe('withChoices and matchChoice', () => {
  it('should add the choices to the system prompt, or as a first system message', () => {
    assert.equal(withChoices(MESSAGES, CHOICES)[0].content,
      'You play Twenty Questions.\n\nAnswer with exactly one of these words and nothing else: yes, no, sometimes.');
    assert.equal(withChoices(MESSAGES, CHOICES).length, 2);
    const bare = withChoices([{ role: 'user', content: 'Hi' }], ['a', 'b']);
    assert.deepEqual(bare.map((m) => m.role), ['system', 'user']);
    assert.equal(withChoices(MESSAGES, undefined), MESSAGES);
  });

  it('should read a choice forgiving case, spaces, quotes and a full stop, and nothing else', () => {
    assert.equal(matchChoice('  Yes. ', CHOICES), 'yes');
    assert.equal(matchChoice('"sometimes"', CHOICES), 'sometimes');
    assert.equal(matchChoice('Yes, it is alive', CHOICES), null);
    assert.equal(matchChoice('<b>yes</b>', CHOICES), null);
    assert.equal(matchChoice('', CHOICES), null);
    assert.equal(matchChoice('yes'.repeat(3000), CHOICES), null);
  });
});

describe('aiWalletWay', () => {
  /** @type {(() => void) | null} */
  let restore = null;
  afterEach(() => { restore?.(); restore = null; });

  /** @param {any} link */
  async function wayOn(link) {
    const wallet = createFakeWallet({ link });
    restore = installWindow(createFakeWindow({ aiwallet: wallet }));
    const client = new AiConnect();
    const way = aiWalletWay(client);
    await way.detect(never);
    return { wallet, client, way };
  }

  it('should be ready when the site is already approved, naming who answers', async () => {
    const { way } = await wayOn({ connected: true, providerName: 'Claude', model: 'haiku' });
    assert.equal(way.status, 'ready');
    assert.equal(way.detail, 'Claude (haiku)');
    assert.deepEqual(way.models, []);
  });

  it('should be offered when the wallet is there and the site not connected, and connect on use', async () => {
    const { way, wallet, client } = await wayOn({ connected: false });
    assert.equal(way.status, 'offered');
    wallet.connectResult = { connected: true, providerName: 'ChatGPT' };
    assert.equal(await way.connect(), true);
    await waitForStatus(client, 'connected');
    assert.equal(way.status, 'ready');
  });

  it('should be absent without a wallet', async () => {
    restore = installWindow(createFakeWindow());
    const way = aiWalletWay(new AiConnect());
    assert.equal(await way.detect(never), 'absent');
  });

  it('should stream the chat and map choices to an instruction and maxTokens to the hint', async () => {
    const { way, wallet } = await wayOn({ connected: true, providerName: 'Claude' });
    wallet.queueChat({ text: ['Is it ', 'a cat?'] });
    /** @type {string[]} */
    const pieces = [];
    const answer = await way.generate({ messages: MESSAGES, choices: CHOICES, maxTokens: 30, onText: (d) => pieces.push(d) });
    assert.equal(answer?.text, 'Is it a cat?');
    assert.deepEqual(pieces, ['Is it ', 'a cat?']);
    const chat = wallet.requests.find((r) => r.method === 'chat');
    assert.deepEqual(chat?.params.options, { maxTokens: 30 });
    assert.match(chat?.params.messages[0].content, /exactly one of these words and nothing else: yes, no, sometimes/);
  });

  it('should let a wallet error through for the chooser to turn into own mode', async () => {
    const { way, wallet, client } = await wayOn({ connected: true, providerName: 'Claude' });
    wallet.queueChat({ error: { status: 429, message: 'Claude answered 429: Your plan is spent' } });
    await assert.rejects(way.generate({ messages: MESSAGES }), { name: 'WalletRequestError', status: 429 });
    const chooser = new WayChooser([aiWalletWay(client)]);
    await chooser.ready;
    wallet.queueChat({ error: { status: 429, message: 'Claude answered 429: Your plan is spent' } });
    assert.equal(await chooser.generate({ messages: MESSAGES }), null);
    assert.equal(chooser.current.id, 'own');
  });

  it('should stop the chat in the wallet when the page aborts', async () => {
    const { way, wallet } = await wayOn({ connected: true, providerName: 'Claude' });
    wallet.queueChat({ text: ['Is it'], hang: true });
    const controller = new AbortController();
    const asking = way.generate({ messages: MESSAGES, signal: controller.signal, onText: () => controller.abort(new DOMException('Stop', 'AbortError')) });
    await assert.rejects(asking, { name: 'AbortError' });
    assert.equal(wallet.requests.find((r) => r.method === 'chat')?.signal?.aborted, true);
  });
});

describe('extensionWay', () => {
  const MANIFEST = { byoa: '0.1-draft' };

  it('should be absent without window.byoa and offered with it', async () => {
    assert.equal(await extensionWay({ manifest: MANIFEST, find: async () => null }).detect(never), 'absent');
    assert.equal(await extensionWay({ manifest: MANIFEST, find: async () => fakeByoa() }).detect(never), 'offered');
  });

  it('should take the granted models and send choices, maxTokens and the model as params', async () => {
    const byoa = fakeByoa({
      grant: { grantId: 'g7', skills: ['text.generate'], models: ['m1', 'm2', 3] },
      answers: [{ ok: true, output: { text: 'no' } }],
    });
    const way = extensionWay({ manifest: MANIFEST, find: async () => byoa });
    await way.detect(never);
    assert.equal(await way.connect(), true);
    assert.deepEqual(way.models, ['m1', 'm2']);
    assert.deepEqual(await way.generate({ messages: MESSAGES, choices: CHOICES, maxTokens: 4, model: 'm2' }), { text: 'no', model: 'm2' });
    assert.deepEqual(byoa.calls[0], {
      grantId: 'g7', skill: 'text.generate', input: { messages: MESSAGES }, params: { choices: CHOICES, maxTokens: 4, model: 'm2' },
    });
  });

  it('should name no model when the grant lists none', async () => {
    const byoa = fakeByoa({ answers: [{ ok: true, output: { text: 'yes' } }] });
    const way = extensionWay({ manifest: MANIFEST, find: async () => byoa });
    await way.detect(never);
    await way.connect();
    await way.generate({ messages: MESSAGES, model: 'm1' });
    assert.deepEqual(byoa.calls[0].params, {});
  });

  it('should say no for a declined request, {ok: false}, a throw and an output without text', async () => {
    const declined = extensionWay({ manifest: MANIFEST, find: async () => fakeByoa({ grant: null }) });
    await declined.detect(never);
    assert.equal(await declined.connect(), false);
    assert.equal(declined.status, 'offered');

    const byoa = fakeByoa({ answers: [{ ok: false }, () => { throw new Error('gone'); }, { ok: true, output: { html: '<b>' } }] });
    const way = extensionWay({ manifest: MANIFEST, find: async () => byoa });
    await way.detect(never);
    await way.connect();
    for (let i = 0; i < 3; i += 1) assert.equal(await way.generate({ messages: MESSAGES }), null);
  });

  it('should reject at once when the page aborts a call the extension cannot stop', async () => {
    const byoa = fakeByoa({ answers: [() => new Promise(() => {})] });
    const way = extensionWay({ manifest: MANIFEST, find: async () => byoa });
    await way.detect(never);
    await way.connect();
    const controller = new AbortController();
    const asking = way.generate({ messages: MESSAGES, signal: controller.signal });
    controller.abort(new DOMException('Stop', 'AbortError'));
    await assert.rejects(asking, { name: 'AbortError' });
  });
});

describe('builtinWay (the Prompt API)', () => {
  it('should be absent without LanguageModel or when unavailable, offered when downloadable, ready when available', async () => {
    assert.equal(await builtinWay({ api: null }).detect(never), 'absent');
    assert.equal(await builtinWay({ api: fakeLanguageModel({ availability: 'unavailable' }) }).detect(never), 'absent');
    assert.equal(await builtinWay({ api: fakeLanguageModel({ availability: 'downloadable' }) }).detect(never), 'offered');
    assert.equal(await builtinWay({ api: fakeLanguageModel({ availability: 'downloading' }) }).detect(never), 'offered');
    assert.equal(await builtinWay({ api: fakeLanguageModel({ availability: 'available' }) }).detect(never), 'ready');
  });

  it('should ask availability and create with the same expected languages', async () => {
    const api = fakeLanguageModel({ availability: 'downloadable' });
    const way = builtinWay({ api, languages: ['en'] });
    await way.detect(never);
    await way.connect();
    assert.deepEqual(api.availabilityAsked[0].expectedInputs, [{ type: 'text', languages: ['en'] }]);
    assert.deepEqual(api.created[0].expectedInputs, api.availabilityAsked[0].expectedInputs);
  });

  it('should report download progress from the monitor, within 0 to 1, and become ready', async () => {
    const api = fakeLanguageModel({ availability: 'downloadable', progress: [0, 0.5, 1, 7] });
    const way = builtinWay({ api });
    await way.detect(never);
    /** @type {number[]} */
    const seen = [];
    assert.equal(await way.connect({ onProgress: (f) => seen.push(f) }), true);
    assert.deepEqual(seen, [0, 0.5, 1, 1]);
    assert.equal(way.status, 'ready');
  });

  it('should say no when the model cannot be created', async () => {
    const way = builtinWay({ api: fakeLanguageModel({ availability: 'downloadable', failCreate: true }) });
    await way.detect(never);
    assert.equal(await way.connect(), false);
    assert.equal(way.status, 'offered');
  });

  it('should put system messages in initialPrompts and stream the rest', async () => {
    const api = fakeLanguageModel({ pieces: ['Is it ', 'a cat?'] });
    const way = builtinWay({ api });
    await way.detect(never);
    /** @type {string[]} */
    const pieces = [];
    assert.deepEqual(await way.generate({ messages: MESSAGES, onText: (d) => pieces.push(d) }), { text: 'Is it a cat?' });
    assert.deepEqual(pieces, ['Is it ', 'a cat?']);
    assert.deepEqual(api.created.at(-1).initialPrompts, [{ role: 'system', content: 'You play Twenty Questions.' }]);
    assert.deepEqual(api.prompts[0].input, [{ role: 'user', content: 'Is it alive?' }]);
    assert.equal(api.destroyed, 1);
  });

  it('should map choices to a JSON Schema responseConstraint and read the string back', async () => {
    const api = fakeLanguageModel({ constrained: '"sometimes"' });
    const way = builtinWay({ api });
    await way.detect(never);
    assert.deepEqual(await way.generate({ messages: MESSAGES, choices: CHOICES }), { text: 'sometimes' });
    assert.deepEqual(api.prompts[0].options.responseConstraint, { type: 'string', enum: CHOICES });
  });

  it('should cut the text at maxTokens times four characters', async () => {
    const api = fakeLanguageModel({ pieces: ['a'.repeat(30), 'b'.repeat(30)] });
    const way = builtinWay({ api });
    await way.detect(never);
    const answer = await way.generate({ messages: MESSAGES, maxTokens: 10 });
    assert.equal(answer?.text.length, 10 * CHARS_PER_TOKEN);
  });

  it('should reject with the abort reason when aborted mid-stream', async () => {
    const api = fakeLanguageModel({ pieces: ['one ', 'two ', 'three'] });
    const way = builtinWay({ api });
    await way.detect(never);
    const controller = new AbortController();
    const asking = way.generate({ messages: MESSAGES, signal: controller.signal, onText: () => controller.abort(new DOMException('Stop', 'AbortError')) });
    await assert.rejects(asking, { name: 'AbortError' });
    assert.equal(api.destroyed, 1);
  });
});

describe('linkWay', () => {
  it('should be offered until the wallet pairs, then ready with the granted models', async () => {
    /** @type {any[]} */
    const asked = [];
    const way = linkWay({
      pair: async () => ({ models: ['m1', 'm2'] }),
      generate: async (request) => { asked.push(request); return { text: 'yes' }; },
    });
    assert.equal(await way.detect(never), 'offered');
    assert.equal(await way.connect(), true);
    assert.deepEqual(way.models, ['m1', 'm2']);
    await way.generate({ messages: MESSAGES });
    await way.generate({ messages: MESSAGES, model: 'm2' });
    assert.deepEqual(asked.map((r) => r.model), ['m1', 'm2']);
  });

  it('should be ready at once when the session is already paired', async () => {
    const way = linkWay({ pair: async () => null, generate: async () => null, paired: async () => ({ models: [] }) });
    assert.equal(await way.detect(never), 'ready');
  });

  it('should be offered again when a pairing fails or the server could not call the wallet', async () => {
    const failing = linkWay({ pair: async () => { throw new Error('network'); }, generate: async () => null });
    assert.equal(await failing.connect(), false);
    assert.equal(failing.status, 'offered');
    const dropped = linkWay({ pair: async () => ({ models: [] }), generate: async () => null });
    await dropped.connect();
    assert.equal(await dropped.generate({ messages: MESSAGES }), null);
    assert.equal(dropped.status, 'offered');
  });
});

describe('readEventStream', () => {
  /** @param {string[]} parts */
  const body = (parts) => new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });

  it('should yield events split anywhere across chunks, in order', async () => {
    const seen = [];
    for await (const event of readEventStream(body(['event: del', 'ta\ndata: {"text":"Is"}\n', '\n: keep-alive\n\nevent: delta\r\ndata: {"text":" it"}\r\n\r\n', 'data: a\ndata: b\n\n']))) {
      seen.push(event);
    }
    assert.deepEqual(seen, [
      { event: 'delta', data: '{"text":"Is"}' },
      { event: 'delta', data: '{"text":" it"}' },
      { event: 'message', data: 'a\nb' },
    ]);
  });

  it('should read a CR LF split between two chunks as one line end', async () => {
    const seen = [];
    for await (const event of readEventStream(body(['data: x\r', '\ndata: y\r\n\r\n']))) seen.push(event);
    assert.deepEqual(seen, [{ event: 'message', data: 'x\ny' }]);
  });

  it('should drop an event the stream ends in the middle of', async () => {
    const seen = [];
    for await (const event of readEventStream(body(['event: result\ndata: {"game"']))) seen.push(event);
    assert.deepEqual(seen, []);
  });
});

describe('extensionWay and the per-minute limit', () => {
  it('should wait, saying how long, instead of making a call over maxCallsPerMinute', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const byoa = fakeByoa({ answers: [{ ok: true, output: { text: 'a' } }, { ok: true, output: { text: 'b' } }] });
    const way = extensionWay({ manifest: { purpose: { limits: { maxCallsPerMinute: 1 } } }, find: async () => byoa });
    await way.detect(never);
    await way.connect();
    assert.deepEqual(await way.generate({ messages: MESSAGES }), { text: 'a' });
    /** @type {number[]} */
    const waits = [];
    const second = way.generate({ messages: MESSAGES, onWait: (ms) => waits.push(ms) });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(waits, [60_000]);
    assert.equal(byoa.calls.length, 1);
    t.mock.timers.tick(60_000);
    assert.deepEqual(await second, { text: 'b' });
    assert.equal(byoa.calls.length, 2);
  });

  it('should stop waiting when the page aborts', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const byoa = fakeByoa({ answers: [{ ok: true, output: { text: 'a' } }] });
    const way = extensionWay({ manifest: { purpose: { limits: { maxCallsPerMinute: 1 } } }, find: async () => byoa });
    await way.detect(never);
    await way.connect();
    await way.generate({ messages: MESSAGES });
    const controller = new AbortController();
    const second = way.generate({ messages: MESSAGES, signal: controller.signal });
    controller.abort(new DOMException('Stop', 'AbortError'));
    await assert.rejects(second, { name: 'AbortError' });
    assert.equal(byoa.calls.length, 1);
  });
});
