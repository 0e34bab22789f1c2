// @ts-check
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';

import { csrfToken as csrfFromItsModule } from '../../byoa/csrf.js';
import * as byoa from '../../byoa/index.js';
import { csrfToken, startLink } from '../../byoa/link.js';
import { fakeDocument } from '../helpers/fake-document.js';

const LINK = 'bringyourownagent://connect?v=0.1&endpoint=wss%3A%2F%2Fgame.example.org%2Fbyoa%2Fws&manifest=e30&session=SECRET-CODE-0123456789';
const WAIT_ID = 'wait-id-abc';

describe('csrfToken from link.js', () => {
  it('should be the one of csrf.js, for pages that import it from the link module', () => {
    assert.equal(csrfToken, csrfFromItsModule);
    assert.equal(csrfToken, byoa.csrfToken);
  });
});

/**
 * A fake fetch for the two endpoints. `code` answers the POST; `states` the polls in turn (the
 * last one repeats); an Error in either is thrown as a network failure.
 * @param {{ code?: Response | Error | (() => Response), states?: (string | Error | Response)[] }} script
 */
function fakeServer({ code = Response.json({ session: WAIT_ID, link: LINK }), states = ['waiting'] }) {
  /** @type {{ url: string, init: RequestInit }[]} */
  const requests = [];
  let poll = 0;
  /** @type {typeof globalThis.fetch} */
  const fetch = async (input, init = {}) => {
    const url = String(input);
    requests.push({ url, init });
    init.signal?.throwIfAborted();
    const answer = url.startsWith('/byoa/code') ? code : states[Math.min(poll++, states.length - 1)];
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer();
    if (answer instanceof Response) return answer.clone();
    return Response.json({ state: answer });
  };
  return { fetch, requests, polls: () => requests.filter((r) => r.url.startsWith('/byoa/wait')) };
}

/** Let pending promise callbacks run (setImmediate is not mocked). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Move the mocked clock by `ms`, 100 ms at a time, letting the flow react in between. */
async function advance(/** @type {number} */ ms) {
  await settle();
  for (let t = 0; t < ms; t += 100) {
    mock.timers.tick(Math.min(100, ms - t));
    await settle();
  }
}

describe('startLink', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'] }));
  afterEach(() => {
    mock.timers.reset();
    delete (/** @type {any} */ (globalThis)).document;
  });

  it('should POST the manifest name with the CSRF token, then open and show the link', async () => {
    /** @type {any} */ (globalThis).document = fakeDocument({ cookie: 'csrftoken=tok' });
    const server = fakeServer({ states: ['connected'] });
    const opened = mock.fn();
    const shown = mock.fn();
    const outcome = startLink({ manifest: 'geography', fetch: server.fetch, open: opened, onLink: shown });
    await advance(1000);
    assert.equal(await outcome, 'connected');
    const [post] = server.requests;
    assert.equal(post.url, '/byoa/code');
    assert.equal(post.init.method, 'POST');
    assert.equal(post.init.credentials, 'same-origin');
    assert.deepEqual(JSON.parse(String(post.init.body)), { manifest: 'geography' });
    assert.equal(/** @type {Record<string, string>} */ (post.init.headers)['X-CSRFToken'], 'tok');
    assert.deepEqual(opened.mock.calls.map((c) => c.arguments), [[LINK]]);
    assert.deepEqual(shown.mock.calls.map((c) => c.arguments), [[LINK]]);
  });

  it('should tell which wallet connected, as text cut to 100 characters, and end that pairing on request', async () => {
    /** @type {any} */ (globalThis).document = fakeDocument({ cookie: 'csrftoken=tok' });
    const name = '<img src=x onerror=alert(1)>' + 'w'.repeat(200);
    const server = fakeServer({ states: [Response.json({ state: 'connected', wallet: name, active: true })] });
    /** @type {import('../../byoa/types.js').LinkedWallet[]} */
    const connected = [];
    const outcome = startLink({ fetch: server.fetch, open: () => {}, onConnected: (linked) => connected.push(linked) });
    await advance(1000);
    assert.equal(await outcome, 'connected');
    assert.equal(connected.length, 1);
    assert.equal(connected[0].wallet, name.slice(0, 100));
    assert.equal(await connected[0].disconnect(), true);
    const ended = /** @type {{ url: string, init: RequestInit }} */ (server.requests.at(-1));
    assert.equal(ended.url, '/byoa/disconnect');
    assert.equal(ended.init.method, 'POST');
    assert.deepEqual(JSON.parse(String(ended.init.body)), { session: WAIT_ID });
    assert.equal(/** @type {Record<string, string>} */ (ended.init.headers)['X-CSRFToken'], 'tok');
  });

  it('should send no X-CSRFToken header when the page has no token, and an empty body without a manifest', async () => {
    /** @type {any} */ (globalThis).document = fakeDocument();
    const server = fakeServer({ states: ['connected'] });
    const outcome = startLink({ fetch: server.fetch, open: () => {} });
    await advance(1000);
    assert.equal(await outcome, 'connected');
    const headers = /** @type {Record<string, string>} */ (server.requests[0].init.headers);
    assert.equal('X-CSRFToken' in headers, false);
    assert.deepEqual(JSON.parse(String(server.requests[0].init.body)), {});
  });

  it('should poll the wait URL with the session (never the link) every pollMs until connected', async () => {
    const server = fakeServer({ states: ['waiting', 'waiting', 'connected'] });
    const outcome = startLink({ fetch: server.fetch, open: () => {}, pollMs: 500, waitUrl: '/byoa/wait?x=1' });
    await advance(1400);
    assert.equal(server.polls().length, 2);
    await advance(100);
    assert.equal(await outcome, 'connected');
    assert.deepEqual(server.polls().map((r) => r.url), Array(3).fill(`/byoa/wait?x=1&session=${WAIT_ID}`));
  });

  it("should end 'not-connected' at once when the code expires", async () => {
    const server = fakeServer({ states: ['waiting', 'expired'] });
    const outcome = startLink({ fetch: server.fetch, open: () => {} });
    await advance(2000);
    assert.equal(await outcome, 'not-connected');
    await advance(5000);
    assert.equal(server.polls().length, 2);
  });

  it("should count down each second and end 'not-connected' at the deadline", async () => {
    const server = fakeServer({ states: ['waiting'] });
    /** @type {number[]} */
    const ticks = [];
    let outcome = /** @type {string | null} */ (null);
    startLink({ fetch: server.fetch, open: () => {}, onTick: (s) => ticks.push(s) }).then((o) => { outcome = o; });
    await advance(89_900);
    assert.equal(outcome, null);
    await advance(100);
    assert.equal(outcome, 'not-connected');
    assert.deepEqual(ticks, Array.from({ length: 91 }, (_, i) => 90 - i)); // 90, 89, ..., 1, 0
    const polls = server.polls().length;
    await advance(5000);
    assert.equal(server.polls().length, polls, 'no poll after the deadline');
  });

  it('should keep waiting through a failed poll (network or 500)', async () => {
    const server = fakeServer({ states: [new TypeError('Failed to fetch'), new Response('oops', { status: 500 }), 'connected'] });
    const outcome = startLink({ fetch: server.fetch, open: () => {} });
    await advance(3000);
    assert.equal(await outcome, 'connected');
  });

  it("should stop polling and end 'not-connected' when the signal aborts", async () => {
    const server = fakeServer({ states: ['waiting'] });
    const controller = new AbortController();
    const ticks = mock.fn();
    const outcome = startLink({ fetch: server.fetch, open: () => {}, signal: controller.signal, onTick: ticks });
    await advance(5000);
    controller.abort();
    assert.equal(await outcome, 'not-connected');
    const polls = server.polls().length;
    const tickCount = ticks.mock.callCount();
    await advance(5000);
    assert.equal(server.polls().length, polls);
    assert.equal(ticks.mock.callCount(), tickCount, 'the countdown stops too');
  });

  it('should open nothing when the signal aborts while the code is being fetched', async () => {
    const controller = new AbortController();
    const server = fakeServer({ code: () => { controller.abort(); return Response.json({ session: WAIT_ID, link: LINK }); } });
    const opened = mock.fn();
    assert.equal(await startLink({ fetch: server.fetch, open: opened, signal: controller.signal }), 'not-connected');
    assert.equal(opened.mock.callCount(), 0);
    assert.equal(server.polls().length, 0);
  });

  it("should end 'not-connected' without a request when the signal is already aborted", async () => {
    const server = fakeServer({});
    assert.equal(await startLink({ fetch: server.fetch, open: () => {}, signal: AbortSignal.abort() }), 'not-connected');
    assert.equal(server.requests.length, 0);
  });

  for (const [name, code] of /** @type {[string, Response | Error][]} */ ([
    ['403 (CSRF refused)', new Response('Forbidden', { status: 403 })],
    ['429 (too many codes)', Response.json({ error: 'rate-limited', message: 'wait 30 s' }, { status: 429 })],
    ['a network error', new TypeError('Failed to fetch')],
    ['a body that is not JSON', new Response('<html>', { status: 200 })],
    ['an answer without a session', Response.json({ link: LINK })],
    ['a link that is not a wallet link', Response.json({ session: WAIT_ID, link: 'javascript:alert(1)' })],
    ['a link that is not a string', Response.json({ session: WAIT_ID, link: [LINK] })],
    ['a session that is not a string', Response.json({ session: 42, link: LINK })],
  ])) {
    it(`should end 'not-connected' and open nothing when the code POST gets ${name}`, async () => {
      const server = fakeServer({ code });
      const opened = mock.fn();
      const shown = mock.fn();
      const ticks = mock.fn();
      assert.equal(await startLink({ fetch: server.fetch, open: opened, onLink: shown, onTick: ticks }), 'not-connected');
      assert.equal(opened.mock.callCount() + shown.mock.callCount() + ticks.mock.callCount(), 0);
      assert.equal(server.polls().length, 0);
    });
  }

  it('should expose no secret or error text: nothing logged, nothing thrown, only the outcome', async () => {
    const logged = ['log', 'info', 'warn', 'error', 'debug'].map((name) => mock.method(console, /** @type {any} */ (name)));
    const secret = new TypeError(`connect failed for ${LINK}`);
    const server = fakeServer({ states: [secret, Response.json({ state: 'expired', detail: 'declined by visitor' })] });
    /** @type {unknown[]} */
    const seen = [];
    const outcome = await Promise.all([
      startLink({ fetch: server.fetch, open: () => {}, onTick: (s) => seen.push(s) }),
      advance(3000),
    ]).then(([o]) => o);
    assert.equal(outcome, 'not-connected');
    assert.ok(seen.every((s) => typeof s === 'number'));
    assert.equal(logged.reduce((n, m) => n + m.mock.callCount(), 0), 0);
  });

  it('should keep its outcome when a page callback throws', async () => {
    const server = fakeServer({ states: ['connected'] });
    const outcome = startLink({
      fetch: server.fetch,
      open: () => { throw new Error('no handler'); },
      onLink: () => { throw new Error('page bug'); },
      onTick: () => { throw new Error('page bug'); },
    });
    await advance(1000);
    assert.equal(await outcome, 'connected');
  });
});
