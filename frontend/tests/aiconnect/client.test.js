// @ts-check
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';

import { AiConnect, INSTALL_URL } from '../../aiconnect/client.js';
import {
  announceOnRequest, createFakeWallet, createFakeWindow, installWindow, waitForStatus,
} from '../helpers/fake-wallet.js';

const LINKED = { connected: true, providerName: 'ChatGPT', model: 'gpt-test' };

/** @type {(() => void) | null} */
let restore = null;
afterEach(() => {
  restore?.();
  restore = null;
  mock.timers.reset();
});

/**
 * Install a page whose window.aiwallet is `wallet` and return a client on it, with the states
 * it went through recorded from the start.
 *
 * @param {ReturnType<typeof createFakeWallet>} [wallet]
 */
function clientOn(wallet) {
  restore = installWindow(createFakeWindow(wallet ? { aiwallet: wallet } : {}));
  const client = new AiConnect();
  /** @type {string[]} */
  const seen = [];
  client.subscribe((state) => seen.push(state.status));
  return { client, seen };
}

describe('AiConnect construction', () => {
  it('should stay checking and ask nothing where there is no window', async () => {
    assert.equal(typeof (/** @type {any} */ (globalThis).window), 'undefined');
    const client = new AiConnect();
    await client.connect();
    await client.disconnect();
    assert.deepEqual(client.state, { status: 'checking' });
  });

  it('should start in checking', () => {
    const { client } = clientOn(createFakeWallet());
    assert.equal(client.state.status, 'checking');
  });

  it('should give the install page', () => {
    assert.equal(new AiConnect().installUrl, 'https://tensorpass.app/wallet');
    assert.equal(INSTALL_URL, 'https://tensorpass.app/wallet');
  });

  it('should become disconnected when the status says the site is not connected', async () => {
    const wallet = createFakeWallet();
    const { client, seen } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    assert.deepEqual(seen, ['disconnected']);
    assert.deepEqual(wallet.requests.map((r) => r.method), ['status']);
  });

  it('should become connected without a prompt for a site approved earlier', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const { client } = clientOn(wallet);
    const state = await waitForStatus(client, 'connected');
    assert.equal(state.providerName, 'ChatGPT');
    assert.equal(state.model, 'gpt-test');
    assert.equal(state.session.providerId, 'aiwallet');
    assert.equal(state.session.model, 'gpt-test');
    assert.ok(!wallet.requests.some((r) => r.method === 'connect'));
  });

  it('should leave the model out and give the session an empty model with Auto', async () => {
    const { client } = clientOn(createFakeWallet({ link: { connected: true, providerName: 'Auto' } }));
    const state = await waitForStatus(client, 'connected');
    assert.equal('model' in state, false);
    assert.equal(state.session.model, '');
  });

  it('should become noWallet when no wallet announces within 300 ms', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { client, seen } = clientOn();
    mock.timers.tick(299);
    await Promise.resolve();
    assert.equal(client.state.status, 'checking');
    mock.timers.tick(1);
    await waitForStatus(client, 'noWallet');
    assert.deepEqual(seen, ['noWallet']);
  });

  it('should use a wallet that announces late, within 300 ms', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const win = createFakeWindow();
    const wallet = createFakeWallet({ link: LINKED });
    announceOnRequest(win, wallet, (announce) => setTimeout(announce, 250));
    restore = installWindow(win);
    const client = new AiConnect();
    mock.timers.tick(250);
    await waitForStatus(client, 'connected');
  });

  it('should show the wallet\'s reason when the status check fails', async () => {
    const wallet = createFakeWallet().failNext('status', 410, 'AI Wallet was updated. Reload this page to use it again.');
    const { client } = clientOn(wallet);
    const state = await waitForStatus(client, 'error');
    assert.equal(state.message, 'AI Wallet was updated. Reload this page to use it again.');
  });
});

describe('AiConnect.subscribe', () => {
  it('should not call a new listener with the current state', async () => {
    const { client } = clientOn(createFakeWallet());
    await waitForStatus(client, 'disconnected');
    let calls = 0;
    client.subscribe(() => { calls += 1; });
    assert.equal(calls, 0);
  });

  it('should stop calling a listener it removed', async () => {
    const wallet = createFakeWallet({ connectResult: LINKED });
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    /** @type {string[]} */
    const heard = [];
    const stop = client.subscribe((state) => heard.push(state.status));
    stop();
    await client.connect();
    assert.equal(client.state.status, 'connected');
    assert.deepEqual(heard, []);
  });
});

describe('AiConnect.connect', () => {
  it('should keep the wallet\'s outcome and call every listener when one listener throws', async () => {
    const wallet = createFakeWallet({ connectResult: LINKED });
    const { client, seen } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    /** @type {unknown[]} */
    const reported = [];
    const original = globalThis.reportError;
    globalThis.reportError = (error) => reported.push(error);
    try {
      client.subscribe(() => { throw new Error('a bug in the page'); });
      await client.connect();
    } finally {
      globalThis.reportError = original;
    }
    assert.equal(client.state.status, 'connected');
    assert.deepEqual(seen, ['disconnected', 'connecting', 'connected']);
    assert.deepEqual(reported.map((error) => /** @type {Error} */ (error).message), ['a bug in the page', 'a bug in the page']);
  });

  it('should move disconnected -> connecting -> connected on approval', async () => {
    const wallet = createFakeWallet({ connectResult: LINKED });
    const { client, seen } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    const approval = wallet.holdConnect();
    const done = client.connect();
    await wallet.waitForRequest('connect');
    assert.equal(client.state.status, 'connecting');
    approval.approve();
    await done;
    assert.deepEqual(seen, ['disconnected', 'connecting', 'connected']);
    assert.equal(/** @type {any} */ (client.state).providerName, 'ChatGPT');
  });

  it('should move to error with the wallet\'s reason and still resolve when declined', async () => {
    const wallet = createFakeWallet({ connectError: { status: 403, message: 'The connection was declined' } });
    const { client, seen } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    await client.connect();
    assert.deepEqual(client.state, { status: 'error', message: 'The connection was declined' });
    assert.deepEqual(seen, ['disconnected', 'connecting', 'error']);
  });

  it('should move to error when the visitor leaves the wallet locked', async () => {
    const wallet = createFakeWallet().failNext('connect', 403, 'AI Wallet is locked. Unlock it to continue.');
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    await client.connect();
    assert.deepEqual(client.state, { status: 'error', message: 'AI Wallet is locked. Unlock it to continue.' });
  });

  it('should connect again after an error', async () => {
    const wallet = createFakeWallet({ connectResult: LINKED }).failNext('connect', 403, 'The connection was declined');
    const { client } = clientOn(wallet);
    await client.connect();
    assert.equal(client.state.status, 'error');
    await client.connect();
    assert.equal(client.state.status, 'connected');
  });

  it('should become noWallet without a wallet and resolve', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { client, seen } = clientOn();
    const done = client.connect();
    mock.timers.tick(300);
    await done;
    assert.equal(client.state.status, 'noWallet');
    await client.connect();
    assert.deepEqual(seen, ['noWallet'], 'a repeated noWallet is no new state');
  });

  it('should wait for the status check when called during checking', async () => {
    const wallet = createFakeWallet({ connectResult: LINKED });
    const { client } = clientOn(wallet);
    await client.connect();
    assert.deepEqual(wallet.requests.map((r) => r.method), ['status', 'connect']);
    assert.equal(client.state.status, 'connected');
  });
});

describe('AiConnect.disconnect', () => {
  it('should ask the wallet and become disconnected', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'connected');
    await client.disconnect();
    assert.deepEqual(client.state, { status: 'disconnected' });
    assert.equal(wallet.requests.at(-1)?.method, 'disconnect');
  });

  it('should reject and keep the state when the wallet is locked', async () => {
    const wallet = createFakeWallet({ link: LINKED }).failNext('disconnect', 403, 'The wallet is locked');
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'connected');
    await assert.rejects(client.disconnect(), { name: 'WalletRequestError', status: 403, message: 'The wallet is locked' });
    assert.equal(client.state.status, 'connected');
  });

  it('should become noWallet without a wallet', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { client } = clientOn();
    const done = client.disconnect();
    mock.timers.tick(300);
    await done;
    assert.equal(client.state.status, 'noWallet');
  });
});

describe('AiConnect link notices', () => {
  it('should follow the visitor picking another account', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'connected');
    wallet.notify({ connected: true, providerName: 'Claude', model: 'claude-test' });
    assert.equal(/** @type {any} */ (client.state).providerName, 'Claude');
    assert.equal(/** @type {any} */ (client.state).session.model, 'claude-test');
  });

  it('should follow the visitor picking another model', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const { client, seen } = clientOn(wallet);
    await waitForStatus(client, 'connected');
    wallet.notify({ ...LINKED, model: 'gpt-other' });
    assert.equal(/** @type {any} */ (client.state).model, 'gpt-other');
    assert.deepEqual(seen, ['connected', 'connected']);
  });

  it('should become disconnected when the site is switched off in the wallet', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'connected');
    wallet.notify({ connected: false });
    assert.deepEqual(client.state, { status: 'disconnected' });
  });

  it('should become connected when the visitor unlocks the wallet', async () => {
    const wallet = createFakeWallet();
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    wallet.notify(LINKED);
    assert.equal(client.state.status, 'connected');
  });

  it('should not announce a notice that repeats the link it holds', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const { client, seen } = clientOn(wallet);
    await waitForStatus(client, 'connected');
    const before = client.state;
    wallet.notify({ ...LINKED });
    assert.equal(client.state, before);
    assert.deepEqual(seen, ['connected']);
  });

  it('should keep connecting when a not-connected notice arrives during the approval', async () => {
    const wallet = createFakeWallet({ connectResult: LINKED });
    const { client } = clientOn(wallet);
    await waitForStatus(client, 'disconnected');
    const approval = wallet.holdConnect();
    const done = client.connect();
    await wallet.waitForRequest('connect');
    wallet.notify({ connected: false });
    assert.equal(client.state.status, 'connecting');
    approval.approve(LINKED);
    await done;
    assert.equal(client.state.status, 'connected');
  });
});

describe('the connected session', () => {
  /** @param {ReturnType<typeof createFakeWallet>} wallet */
  async function sessionOf(wallet) {
    const { client } = clientOn(wallet);
    return (await waitForStatus(client, 'connected')).session;
  }

  it('should send one chat request with the messages, tools and options', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const session = await sessionOf(wallet);
    const messages = [{ role: 'user', content: 'A calm book' }];
    const tools = [{ name: 'search_books', description: 'Find books', inputSchema: { type: 'object' } }];
    const options = { toolChoice: 'auto', maxTokens: 100 };
    await session.chat({ messages, tools, options });
    const chats = wallet.requests.filter((r) => r.method === 'chat');
    assert.equal(chats.length, 1);
    assert.deepEqual(chats[0].params, { messages, tools, options });
  });

  it('should report who answers once, then each piece of text, then resolve with the answer', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    wallet.queueChat({ providerName: 'Claude', model: 'claude-x', resultModel: 'claude-x-2025', text: ['Pira', 'nesi'] });
    const session = await sessionOf(wallet);
    /** @type {unknown[]} */
    const heard = [];
    const response = await session.chat({
      messages: [{ role: 'user', content: 'hi' }],
      onStart: (/** @type {unknown} */ start) => heard.push(start),
      onText: (/** @type {string} */ delta) => heard.push(delta),
    });
    assert.deepEqual(heard, [{ providerName: 'Claude', model: 'claude-x' }, 'Pira', 'nesi']);
    assert.equal(response.message.content, 'Piranesi');
    assert.equal(response.model, 'claude-x-2025');
    assert.equal(response.finishReason, 'stop');
  });

  for (const [status, message] of /** @type {const} */ ([
    [400, 'A chat request carries its messages'],
    [401, 'This site is not connected to AI Wallet'],
    [403, 'AI Wallet has no AI account connected'],
    [410, 'AI Wallet was updated. Reload this page to use it again.'],
    [429, 'OpenAI answered 429: quota exceeded'],
    [499, 'The answer was stopped from AI Wallet'],
    [502, 'fetch failed'],
  ])) {
    it(`should reject with the wallet's ${status} error`, async () => {
      const wallet = createFakeWallet({ link: LINKED }).queueChat({ error: { status, message } });
      const session = await sessionOf(wallet);
      await assert.rejects(session.chat({ messages: [{ role: 'user', content: 'hi' }] }),
        (/** @type {any} */ error) => error.name === 'WalletRequestError' && error.status === status && error.message === message);
    });
  }

  it('should reject with the signal\'s reason and pass the signal to the wallet when aborted', async () => {
    const wallet = createFakeWallet({ link: LINKED }).queueChat({ text: 'partial', hang: true });
    const session = await sessionOf(wallet);
    const controller = new AbortController();
    /** @type {string[]} */
    const texts = [];
    const chat = session.chat({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal,
      onText: (/** @type {string} */ delta) => texts.push(delta) });
    const request = await wallet.waitForRequest('chat');
    const reason = new Error('Stop pressed');
    controller.abort(reason);
    await assert.rejects(chat, (error) => error === reason);
    assert.equal(request.signal, controller.signal);
  });

  it('should not ask the wallet when the signal is already aborted', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    const session = await sessionOf(wallet);
    const reason = new Error('too late');
    await assert.rejects(session.chat({ messages: [], signal: AbortSignal.abort(reason) }), (error) => error === reason);
    assert.ok(!wallet.requests.some((r) => r.method === 'chat'));
  });

  it('should drop events the wallet sends after the chat was aborted', async () => {
    const wallet = createFakeWallet({ link: LINKED });
    /** @type {(event: any) => void} */
    let emit = () => {};
    wallet.queueChat(async (_params, onEvent, signal) => {
      emit = onEvent;
      await new Promise((resolve) => signal?.addEventListener('abort', resolve));
      return { message: { role: 'assistant', content: '' }, finishReason: 'stop', model: 'm' };
    });
    const session = await sessionOf(wallet);
    const controller = new AbortController();
    /** @type {string[]} */
    const texts = [];
    const chat = session.chat({ messages: [], signal: controller.signal, onText: (/** @type {string} */ d) => texts.push(d) });
    await wallet.waitForRequest('chat');
    controller.abort();
    await assert.rejects(chat, { name: 'AbortError' });
    emit({ kind: 'text', delta: 'late' });
    assert.deepEqual(texts, []);
  });
});
