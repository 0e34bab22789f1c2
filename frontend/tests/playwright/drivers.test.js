// @ts-check
// The JavaScript test-wallet drivers speak the stubs' binding protocol: each test plays the page,
// calling the binding the driver exposed on a recording Playwright target.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { AiWallet, SCRIPT_PATH } from '../../playwright/aiwallet-driver.js';
import { ByoaExtension, FAILED, SCRIPT_PATHS } from '../../playwright/byoa-driver.js';
import { ScriptError, TimeoutError } from '../../playwright/driver.js';

const PAGE_URL = 'http://127.0.0.1:8000/bookshop/';

/** A Playwright target that records what a driver installs, and calls its binding as a frame would. */
function recordingTarget() {
  /** @type {Map<string, (source: any, message: any) => any>} */
  const bindings = new Map();
  /** @type {string[]} */
  const scripts = [];
  const frame = { url: () => PAGE_URL, isDetached: () => false };
  return {
    bindings,
    scripts,
    /** @param {string} name @param {(source: any, message: any) => any} callback */
    async exposeBinding(name, callback) {
      bindings.set(name, callback);
    },
    /** @param {{ path: string }} script */
    async addInitScript({ path }) {
      scripts.push(path);
    },
    /** @param {string} name @param {any} message */
    call(name, message) {
      const callback = bindings.get(name);
      if (!callback) throw new Error(`no binding ${name}`);
      return callback({ frame }, message);
    },
  };
}

/**
 * Send one request as aiwallet.js does and pull its events until the answer.
 *
 * @param {ReturnType<typeof recordingTarget>} target
 * @param {string} method
 * @param {unknown} [params]
 */
async function ask(target, method, params) {
  const id = `r${Math.random()}`;
  await target.call('__testwalletAiwallet', { op: 'request', page: 'p1', id, method, params });
  const events = [];
  for (;;) {
    const event = await target.call('__testwalletAiwallet', { op: 'next', id });
    events.push(event);
    if (event === null || event.kind === 'result' || event.kind === 'error') return events;
  }
}

async function installedWallet() {
  const wallet = new AiWallet();
  const target = recordingTarget();
  await wallet.install(target);
  await target.call('__testwalletAiwallet', { op: 'hello', page: 'p1' });
  return { wallet, target };
}

const CHAT = { messages: [{ role: 'user', content: 'Something calm' }], tools: [{ name: 'search_books' }] };

describe('AiWallet', () => {
  it('should install the binding and aiwallet.js once per target', async () => {
    const wallet = new AiWallet();
    const target = recordingTarget();
    await wallet.install(target);
    await wallet.install(target);
    assert.deepEqual([...target.bindings.keys()], ['__testwalletAiwallet']);
    assert.deepEqual(target.scripts, [SCRIPT_PATH]);
    assert.match(SCRIPT_PATH, /testwallet\/aiwallet\.js$/);
  });

  it('should approve a connect, send a link notice and log the origin of the frame', async () => {
    const { wallet, target } = await installedWallet();
    const notice = target.call('__testwalletAiwallet', { op: 'listen', page: 'p1' });
    assert.deepEqual((await ask(target, 'status')).at(-1), { kind: 'result', result: { connected: false } });
    const connected = (await ask(target, 'connect', { origin: 'https://elsewhere.example' })).at(-1);
    const link = { connected: true, providerName: 'Test wallet', model: 'echo-1' };
    assert.deepEqual(connected, { kind: 'result', result: link });
    assert.deepEqual(await notice, { kind: 'link', link });
    assert.deepEqual(wallet.requests.map((r) => [r.method, r.origin]), [
      ['status', 'http://127.0.0.1:8000'], ['connect', 'http://127.0.0.1:8000'],
    ]);
  });

  it('should answer 403 when the visitor declines', async () => {
    const { wallet, target } = await installedWallet();
    wallet.consent = 'decline';
    assert.deepEqual(await ask(target, 'connect'), [{ kind: 'error', status: 403, message: 'The connection was declined' }]);
    assert.throws(() => { wallet.consent = /** @type {any} */ ('approve'); }, /consent is one of allow, decline, close; got "approve"/);
    assert.equal(wallet.consent, 'decline');
    assert.deepEqual((await ask(target, 'chat', CHAT)).at(-1)?.status, 401);
  });

  it('should stream a tool call, then the scripted deltas with their result', async () => {
    const { wallet, target } = await installedWallet();
    wallet.approveSite(PAGE_URL);
    wallet.reply('', { toolCalls: [{ name: 'search_books', arguments: '{"mood": "calm"}' }] });
    wallet.reply(['A calm ', 'pick.']);
    const first = (await ask(target, 'chat', CHAT)).at(-1);
    assert.deepEqual(first?.result.message.toolCalls, [{ id: 'call_1', name: 'search_books', arguments: { mood: 'calm' } }]);
    assert.equal(first?.result.finishReason, 'toolCalls');
    const events = await ask(target, 'chat', CHAT);
    assert.deepEqual(events.slice(0, 3), [
      { kind: 'start', providerName: 'Test wallet', model: 'echo-1' },
      { kind: 'text', delta: 'A calm ' },
      { kind: 'text', delta: 'pick.' },
    ]);
    assert.equal(events.at(-1)?.result.message.content, 'A calm pick.');
    assert.deepEqual(wallet.chats.map((chat) => chat.outcome), ['answered', 'answered']);
  });

  it('should answer a queued failure with the status and the account\'s words', async () => {
    const { wallet, target } = await installedWallet();
    wallet.approveSite(PAGE_URL);
    wallet.fail(429, 'Your plan is spent');
    assert.deepEqual(await ask(target, 'chat', CHAT), [
      { kind: 'error', status: 429, message: 'Test wallet answered 429: Your plan is spent' },
    ]);
    assert.equal(wallet.chats[0].outcome, 'failed');
    assert.throws(() => wallet.fail(200, 'fine'), RangeError);
  });

  it('should answer 500 for a tool the chat did not offer and raise it from check()', async () => {
    const { wallet, target } = await installedWallet();
    wallet.approveSite(PAGE_URL);
    wallet.reply('', { toolCalls: [{ name: 'delete_everything' }] });
    assert.equal((await ask(target, 'chat', CHAT)).at(-1)?.status, 500);
    assert.throws(() => wallet.check(), (error) => error instanceof ScriptError && /offered search_books/.test(error.message));
    assert.doesNotThrow(() => wallet.check()); // reported once
  });

  it('should say what did not happen when a wait times out', async () => {
    const wallet = new AiWallet();
    await assert.rejects(
      wallet.waitUntil(function twoChats(w) { return w.chats.length === 2; }, { timeout: 10 }),
      (error) => error instanceof TimeoutError && error.message === 'twoChats did not become true within 10 ms.',
    );
  });

  it('should end a pending listen with null when the test closes it', async () => {
    const { wallet, target } = await installedWallet();
    const notice = target.call('__testwalletAiwallet', { op: 'listen', page: 'p1' });
    await wallet.close();
    assert.equal(await notice, null);
  });
});

describe('ByoaExtension', () => {
  /** @param {Partial<Record<string, unknown>>} fields */
  const request = (fields = {}) => ({
    type: 'request', ref: 1, activated: true, manifest: {}, valid: true, validation: { errors: [], warnings: [] }, ...fields,
  });

  it('should install the binding, the clip reading, the manifest rules and the stub in order', async () => {
    const target = recordingTarget();
    await new ByoaExtension().install(target);
    assert.deepEqual([...target.bindings.keys()], ['__testwalletByoa']);
    assert.deepEqual(target.scripts, SCRIPT_PATHS);
    assert.deepEqual(SCRIPT_PATHS.map((path) => path.split('/').pop()), ['panel.js', 'byoa-clip.js', 'byoa-skills.js', 'byoa-manifest.js', 'byoa-consent.js', 'byoa-checks.js', 'byoa.js']);
  });

  it('should allow by default, decline when told, and stay quiet without a click', async () => {
    const extension = new ByoaExtension();
    const target = recordingTarget();
    await extension.install(target);
    assert.equal((await target.call('__testwalletByoa', request())).decision, 'allow');
    extension.decline();
    assert.deepEqual(await target.call('__testwalletByoa', request({ ref: 2 })), { decision: 'decline' });
    assert.deepEqual(await target.call('__testwalletByoa', request({ ref: 3, activated: false })), { decision: 'quiet' });
    extension.consent = 'wait';
    assert.deepEqual(await target.call('__testwalletByoa', request({ ref: 4 })), { decision: 'no-answer' });
    extension.consent = 'close';
    assert.deepEqual(await target.call('__testwalletByoa', request({ ref: 5 })), { decision: 'decline' });
    assert.deepEqual(extension.requests.map((r) => r.origin), Array(5).fill('http://127.0.0.1:8000'));
  });

  it('should answer calls with queued outputs, FAILED, then the stub\'s default', async () => {
    const extension = new ByoaExtension();
    const target = recordingTarget();
    await extension.install(target);
    extension.reply('text.generate', { text: 'Peru' }, FAILED);
    const call = { type: 'call', grantId: 'g', skill: 'text.generate', summary: {}, params: {}, input: {}, refused: null };
    assert.deepEqual(await target.call('__testwalletByoa', { ...call, ref: 1 }), { ok: true, output: { text: 'Peru' } });
    assert.deepEqual(await target.call('__testwalletByoa', { ...call, ref: 2 }), { ok: false });
    assert.deepEqual(await target.call('__testwalletByoa', { ...call, ref: 3 }), { default: true });
    await target.call('__testwalletByoa', { type: 'call-done', ref: 1, ok: true });
    assert.deepEqual(extension.calls.map((c) => c.done), [true, false, false]);
  });

  it('should answer a paused site with null and failed calls until it is resumed', async () => {
    const extension = new ByoaExtension();
    const target = recordingTarget();
    await extension.install(target);
    const call = { type: 'call', grantId: 'g', skill: 'text.generate', summary: {}, params: {}, input: {}, refused: null };
    extension.pause('http://127.0.0.1:8000');
    assert.deepEqual(await target.call('__testwalletByoa', request()), { decision: 'block' });
    assert.deepEqual(await target.call('__testwalletByoa', { ...call, ref: 2 }), { ok: false });
    extension.resume('http://127.0.0.1:8000');
    assert.equal((await target.call('__testwalletByoa', request({ ref: 3 }))).decision, 'allow');
    assert.deepEqual(await target.call('__testwalletByoa', { ...call, ref: 4 }), { default: true });
  });

  it('should refuse an output a skill cannot answer with', () => {
    assert.throws(() => new ByoaExtension().reply('audio.transcribe', { words: 'Peru' }), TypeError);
  });
});
