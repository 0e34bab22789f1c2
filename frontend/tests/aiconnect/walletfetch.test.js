// @ts-check
/**
 * WalletFetch's own rules, with plain `fetch` calls: routing, the 404 and 401 answers, waiting
 * for the status check and the visitor's approval, held-back stream responses, the start-event
 * rule, and cancelling. The SDK tests prove each protocol's shapes against the real SDKs.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';

import { AiConnect } from '../../aiconnect/client.js';
import { NOT_CONNECTED, NOT_INSTALLED, NOT_IN_BROWSER, NO_START } from '../../aiconnect/fetch/walletfetch.js';
import { createFakeWallet, createFakeWindow, installWindow, waitForStatus } from '../helpers/fake-wallet.js';
import { TEST_LINK, connectedClient } from '../helpers/connected-client.js';

const CHAT_URL = 'https://api.openai.com/v1/chat/completions';
/** @param {object} body @param {RequestInit} [init] @returns {RequestInit} */
const post = (body, init = {}) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' }, ...init });
const HELLO = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };

/** @type {(() => void) | null} */
let restore = null;
afterEach(() => {
  restore?.();
  restore = null;
  mock.timers.reset();
});

/** @param {Awaited<ReturnType<typeof connectedClient>>} page */
function keep(page) {
  restore = page.restore;
  return page;
}

describe('WalletFetch routing', () => {
  it('should answer other paths with a 404 that every SDK reads', async () => {
    const { client } = keep(await connectedClient());
    const response = await client.fetch('https://api.openai.com/v1/embeddings', post({ input: 'x' }));
    assert.equal(response.status, 404);
    const body = await response.json();
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'not_found_error');
    assert.equal(body.error.code, 404);
    assert.equal(body.error.status, 'NOT_FOUND');
    assert.match(body.error.message, /POST \/v1\/embeddings/);
  });

  it('should answer a GET on a known path with a 404', async () => {
    const { client, wallet } = keep(await connectedClient());
    assert.equal((await client.fetch('https://api.openai.com/v1/models/chat/completions')).status, 404);
    assert.ok(!wallet.requests.some((r) => r.method === 'chat'));
  });

  it('should answer each protocol\'s path, whatever the host', async () => {
    const { client, wallet } = keep(await connectedClient());
    const bodies = {
      'https://example.test/v1/chat/completions': HELLO,
      'https://example.test/v1/responses': { model: 'm', input: 'Hi' },
      'https://example.test/v1/messages': { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] },
      'https://example.test/v1beta/models/g:generateContent': { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    };
    for (const [url, body] of Object.entries(bodies)) {
      assert.equal((await client.fetch(url, post(body))).status, 200, url);
    }
    assert.equal(wallet.requests.filter((r) => r.method === 'chat').length, 4);
  });

  it('should read a Request object as well as a URL and init', async () => {
    const { client } = keep(await connectedClient());
    const response = await client.fetch(new Request(CHAT_URL, post(HELLO)));
    assert.equal((await response.json()).choices[0].message.content, 'Hello from the fake wallet');
  });

  it('should answer a body that is not JSON with a 400 in the protocol\'s shape', async () => {
    const { client } = keep(await connectedClient());
    const response = await client.fetch('https://x.test/v1/messages', { method: 'POST', body: '{nope' });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { type: 'error', error: { type: 'invalid_request_error', message: 'The request body is not JSON' } });
  });

  it('should answer a request it cannot carry with a 400 that says why', async () => {
    const { client, wallet } = keep(await connectedClient());
    const response = await client.fetch(CHAT_URL, post({ model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }));
    assert.equal(response.status, 400);
    assert.match((await response.json()).error.message, /text and images/);
    assert.ok(!wallet.requests.some((r) => r.method === 'chat'));
  });
});

describe('WalletFetch 401 answers', () => {
  it('should answer 401 outside a browser', async () => {
    const response = await new AiConnect().fetch(CHAT_URL, post(HELLO));
    assert.equal(response.status, 401);
    assert.equal((await response.json()).error.message, NOT_IN_BROWSER);
    assert.equal(NOT_IN_BROWSER, 'AI Wallet answers in the browser only');
  });

  it('should answer 401 when the wallet is not installed', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    restore = installWindow(createFakeWindow());
    const client = new AiConnect();
    const answer = client.fetch('https://x.test/v1/messages', post({ model: 'm', max_tokens: 5, messages: [] }));
    mock.timers.tick(300);
    const response = await answer;
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { type: 'error', error: { type: 'authentication_error', message: NOT_INSTALLED } });
    assert.equal(NOT_INSTALLED, 'AI Wallet is not installed in this browser');
  });

  it('should answer 401 when the site is not connected', async () => {
    const { client } = keep(await connectedClient({ link: { connected: false } }));
    const response = await client.fetch('https://x.test/v1beta/models/g:generateContent', post({ contents: [] }));
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { error: { code: 401, message: NOT_CONNECTED, status: 'UNAUTHENTICATED' } });
    assert.equal(NOT_CONNECTED, 'AI Wallet is not connected on this site');
  });

  it('should answer with the wallet\'s status and message when the status check on load failed', async () => {
    const updated = 'AI Wallet was updated. Reload this page to use it again.';
    const wallet = createFakeWallet().failNext('status', 410, updated);
    restore = installWindow(createFakeWindow({ aiwallet: wallet }));
    const client = new AiConnect();
    const response = await client.fetch(CHAT_URL, post(HELLO));
    assert.equal(client.state.status, 'error');
    assert.equal(response.status, 410);
    assert.equal((await response.json()).error.message, updated);
  });

  // aiconnect-core.md, "WalletFetch": "A site that is not connected gets a 401 in the protocol's
  // error shape, with 'AI Wallet is not connected on this site' or ...", a declined connect()
  // included: an SDK is to raise its authentication error, not a permission error.
  for (const [why, message] of [
    ['declined', 'The connection was declined'],
    ['locked', 'AI Wallet is locked. Unlock it to continue.'],
    ['left without an account', 'AI Wallet has no AI account connected'],
  ]) {
    it(`should answer 401 not connected, in each protocol's shape, after a connect() the wallet ${why}`, async () => {
      const wallet = createFakeWallet({ connectError: { status: 403, message } });
      restore = installWindow(createFakeWindow({ aiwallet: wallet }));
      const client = new AiConnect();
      await client.connect();
      assert.deepEqual(client.state, { status: 'error', message });
      const openai = await client.fetch(CHAT_URL, post(HELLO));
      assert.equal(openai.status, 401);
      assert.deepEqual((await openai.json()).error, { message: NOT_CONNECTED, type: 'authentication_error', param: null, code: null });
      const anthropic = await client.fetch('https://x.test/v1/messages', post({ model: 'm', max_tokens: 5, messages: [] }));
      assert.deepEqual([anthropic.status, await anthropic.json()], [401, { type: 'error', error: { type: 'authentication_error', message: NOT_CONNECTED } }]);
      assert.ok(!wallet.requests.some((r) => r.method === 'chat'));
    });
  }

  it('should answer 401 not connected when a connect() is declined after a status check on load failed', async () => {
    const wallet = createFakeWallet({ connectError: { status: 403, message: 'The connection was declined' } })
      .failNext('status', 410, 'AI Wallet was updated. Reload this page to use it again.');
    restore = installWindow(createFakeWindow({ aiwallet: wallet }));
    const client = new AiConnect();
    await client.connect();
    const response = await client.fetch(CHAT_URL, post(HELLO));
    assert.equal(response.status, 401);
    assert.equal((await response.json()).error.message, NOT_CONNECTED);
  });

  it('should wait for the status check before it answers', async () => {
    const wallet = createFakeWallet({ link: TEST_LINK });
    restore = installWindow(createFakeWindow({ aiwallet: wallet }));
    const client = new AiConnect();
    assert.equal(client.state.status, 'checking');
    assert.equal((await client.fetch(CHAT_URL, post(HELLO))).status, 200);
  });

  /** A page whose visitor has the approval window open; `approval.approve()` ends it. */
  async function approving() {
    const wallet = createFakeWallet({ connectResult: TEST_LINK });
    restore = installWindow(createFakeWindow({ aiwallet: wallet }));
    const client = new AiConnect();
    await waitForStatus(client, 'disconnected');
    const approval = wallet.holdConnect();
    const connecting = client.connect();
    await wallet.waitForRequest('connect');
    return { wallet, client, approval, connecting };
  }

  it('should wait for the visitor\'s approval before it answers', async () => {
    const { client, approval, connecting } = await approving();
    const answer = client.fetch(CHAT_URL, post(HELLO));
    approval.approve();
    await connecting;
    assert.equal((await answer).status, 200);
  });

  it('should start no chat when the SDK aborts while the visitor is still approving', async () => {
    const { wallet, client, approval, connecting } = await approving();
    const controller = new AbortController();
    const reason = new Error('the SDK gave up');
    // Abort just after WalletFetch's first check, so that it happens while fetch waits for the visitor.
    const { signal } = controller;
    const firstCheck = signal.throwIfAborted.bind(signal);
    const aborted = new Promise((resolve) => {
      signal.throwIfAborted = () => {
        firstCheck();
        delete (/** @type {any} */ (signal)).throwIfAborted;
        controller.abort(reason);
        resolve(undefined);
      };
    });
    const answer = client.fetch(CHAT_URL, post({ ...HELLO, stream: true }, { signal }));
    await aborted;
    approval.approve();
    await connecting;
    await assert.rejects(answer, (error) => error === reason);
    assert.equal(wallet.requests.filter((request) => request.method === 'chat').length, 0);
  });
});

describe('WalletFetch answers', () => {
  it('should answer a failure before any text with the wallet\'s status and no retry header', async () => {
    const { client, wallet } = keep(await connectedClient());
    for (const status of [403, 410, 429, 499, 502]) {
      wallet.queueChat({ error: { status, message: `nope ${status}` } });
      const response = await client.fetch(CHAT_URL, post({ ...HELLO, stream: true }));
      assert.equal(response.status, status);
      assert.equal(response.headers.get('x-should-retry'), 'false');
      assert.equal((await response.json()).error.message, `nope ${status}`);
    }
  });

  it('should hold a streamed response back until the first text arrives', async () => {
    const { client, wallet } = keep(await connectedClient());
    /** @type {(event: any) => void} */
    let emit = () => {};
    /** @type {(value: any) => void} */
    let finish = () => {};
    wallet.queueChat((_params, onEvent) => {
      emit = onEvent;
      return new Promise((resolve) => { finish = resolve; });
    });
    let answered = false;
    const answer = client.fetch(CHAT_URL, post({ ...HELLO, stream: true })).then((response) => { answered = true; return response; });
    await wallet.waitForRequest('chat');
    emit({ kind: 'start', providerName: 'Test', model: 'first' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, false, 'no response before the first text');
    emit({ kind: 'text', delta: 'Hi' });
    const response = await answer;
    assert.equal(response.headers.get('Content-Type'), 'text/event-stream; charset=utf-8');
    finish({ message: { role: 'assistant', content: 'Hi' }, finishReason: 'stop', model: 'first-2025' });
    const text = await response.text();
    assert.match(text, /"model":"first"/);
    assert.match(text, /data: \[DONE\]\n\n$/);
  });

  it('should fail a stream whose answer never names who answers', async () => {
    const { client, wallet } = keep(await connectedClient());
    wallet.queueChat({ text: ['Anon', 'ymous'], noStart: true });
    const response = await client.fetch(CHAT_URL, post({ ...HELLO, stream: true }));
    assert.equal(response.status, 502);
    assert.equal((await response.json()).error.message, NO_START);
    const chat = wallet.requests.filter((r) => r.method === 'chat').at(-1);
    assert.equal(chat?.signal?.aborted, true, 'the chat was stopped in the wallet');
  });

  it('should fail a stream whose result comes without a start event', async () => {
    const { client, wallet } = keep(await connectedClient());
    wallet.queueChat({ toolCalls: [{ id: 'a', name: 't', arguments: {} }], noStart: true });
    const response = await client.fetch('https://x.test/v1/messages', post({ model: 'm', max_tokens: 5, messages: [], stream: true }));
    assert.equal(response.status, 502);
  });

  it('should stop the chat in the wallet when the reader cancels the stream', async () => {
    const { client, wallet } = keep(await connectedClient());
    wallet.queueChat({ text: 'Once', hang: true });
    const response = await client.fetch(CHAT_URL, post({ ...HELLO, stream: true }));
    const chat = wallet.requests.filter((r) => r.method === 'chat').at(-1);
    await response.body?.cancel(new Error('reader gone'));
    assert.equal(chat?.signal?.aborted, true);
  });

  it('should reject with the signal\'s reason when aborted before the response', async () => {
    const { client, wallet } = keep(await connectedClient());
    wallet.queueChat({ hang: true });
    const controller = new AbortController();
    const answer = client.fetch(CHAT_URL, post({ ...HELLO, stream: true }, { signal: controller.signal }));
    const chat = await wallet.waitForRequest('chat');
    const reason = new Error('page left');
    controller.abort(reason);
    await assert.rejects(answer, (error) => error === reason);
    assert.equal(chat.signal?.aborted, true);
  });

  it('should error the body with the signal\'s reason when aborted mid-stream', async () => {
    const { client, wallet } = keep(await connectedClient());
    wallet.queueChat({ text: 'Once', hang: true });
    const controller = new AbortController();
    const response = await client.fetch(CHAT_URL, post({ ...HELLO, stream: true }, { signal: controller.signal }));
    const reason = new Error('stop');
    controller.abort(reason);
    await assert.rejects(response.text(), (error) => error === reason);
  });

  it('should send the wallet no model and no API key from the request', async () => {
    const { client, wallet } = keep(await connectedClient());
    await client.fetch(CHAT_URL, post({ ...HELLO, model: 'gpt-secret-model' }, { headers: { Authorization: 'Bearer sk-real' } }));
    const params = JSON.stringify(wallet.requests.filter((r) => r.method === 'chat').at(-1)?.params);
    assert.doesNotMatch(params, /gpt-secret-model|sk-real/);
  });
});

describe('client.sdkOptions', () => {
  it('should hold a placeholder key, the client\'s fetch and the browser flag', () => {
    const client = new AiConnect();
    assert.equal(typeof client.sdkOptions.apiKey, 'string');
    assert.equal(client.sdkOptions.fetch, client.fetch);
    assert.equal(client.sdkOptions.dangerouslyAllowBrowser, true);
  });
});
