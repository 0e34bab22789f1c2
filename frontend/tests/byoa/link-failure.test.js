// @ts-check
// startLink tells the developer why a link did not connect (onFailure, and the console for what
// the site must fix), while the page still learns only 'not-connected'.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';

import { startLink } from '../../byoa/link.js';

const LINK = 'bringyourownagent://connect?v=0.1&endpoint=wss%3A%2F%2Fgame.example.org%2Fbyoa%2Fws&manifest=e30&session=SECRET-CODE-0123456789';
const WAIT_ID = 'wait-id-abc';

/**
 * A fetch whose code POST answers `code` and whose polls answer `state`.
 * @param {Response | Error} code
 * @param {string} [state]
 */
function server(code, state = 'waiting') {
  /** @type {typeof globalThis.fetch} */
  const fetch = async (input, init = {}) => {
    init.signal?.throwIfAborted();
    if (!String(input).startsWith('/byoa/code')) return Response.json({ state });
    if (code instanceof Error) throw code;
    return code.clone();
  };
  return fetch;
}

/** Run startLink to its end with the clock moving; return its outcome, what onFailure got and the console's warnings. */
async function outcomeOf(/** @type {import('../../byoa/types.js').LinkOptions} */ options, ms = 0) {
  const warned = mock.method(console, 'warn', () => {});
  const failures = /** @type {import('../../byoa/types.js').LinkFailure[]} */ ([]);
  try {
    const running = startLink({ open: () => {}, onFailure: (f) => failures.push(f), ...options });
    for (let t = 0; t < ms; t += 100) {
      await new Promise((resolve) => setImmediate(resolve));
      mock.timers.tick(100);
    }
    const outcome = await running;
    return { outcome, failures, warnings: warned.mock.calls.map((call) => String(call.arguments[0])) };
  } finally {
    warned.mock.restore();
  }
}

describe('startLink, when a link does not connect', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'] }));
  afterEach(() => mock.timers.reset());

  it("should name Django's CSRF refusal (403) and say to use ensure_csrf_cookie", async () => {
    const { outcome, failures, warnings } = await outcomeOf({ fetch: server(new Response('<h1>Forbidden</h1>', { status: 403 })) });
    assert.equal(outcome, 'not-connected');
    assert.deepEqual(failures.map((f) => [f.reason, f.status]), [['csrf', 403]]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^startLink: .*CSRF.*403.*@ensure_csrf_cookie/);
  });

  it('should name a 429 with its Retry-After and the server\'s words', async () => {
    const limited = Response.json({ error: 'rate-limited', message: 'Too many codes; try again in 30 s.' }, {
      status: 429, headers: { 'Retry-After': '30' },
    });
    const { outcome, failures, warnings } = await outcomeOf({ fetch: server(limited) });
    assert.equal(outcome, 'not-connected');
    assert.deepEqual(failures.map((f) => [f.reason, f.status, f.retryAfter]), [['rate-limited', 429, 30]]);
    assert.match(failures[0].message, /Too many codes; try again in 30 s\.$/);
    assert.match(warnings[0], /^startLink: POST \/byoa\/code answered 429/);
  });

  it("should name a 500 endpoint-refused with the server's message, which says what to set", async () => {
    const refused = Response.json({
      error: 'endpoint-refused', message: "No wallet accepts ws://10.0.0.5/byoa/ws: set BYOA['ENDPOINT'].",
    }, { status: 500 });
    const { failures, warnings } = await outcomeOf({ fetch: server(refused) });
    assert.deepEqual(failures.map((f) => [f.reason, f.status]), [['endpoint-refused', 500]]);
    assert.match(warnings[0], /endpoint-refused.*set BYOA\['ENDPOINT'\]\.$/);
  });

  it('should name an unknown manifest (404) and say the option is an app label', async () => {
    const unknown = Response.json({ error: 'unknown-manifest', message: "No BYOA manifest 'shpo'." }, { status: 404 });
    const { failures, warnings } = await outcomeOf({ manifest: 'shpo', fetch: server(unknown) });
    assert.equal(failures[0].reason, 'unknown-manifest');
    assert.match(warnings[0], /app label.*No BYOA manifest 'shpo'\.$/);
  });

  for (const [reason, code] of /** @type {[string, Response | Error][]} */ ([
    ['server-error', new Response('oops', { status: 502 })],
    ['network', new TypeError('Failed to fetch')],
    ['bad-answer', Response.json({ session: WAIT_ID, link: 'javascript:alert(1)' })],
    ['bad-answer', new Response('<html>', { status: 200 })],
  ])) {
    it(`should name ${reason} for a code POST that gets ${code instanceof Error ? code.message : code.status}`, async () => {
      const { outcome, failures, warnings } = await outcomeOf({ fetch: server(code) });
      assert.equal(outcome, 'not-connected');
      assert.deepEqual(failures.map((f) => f.reason), [reason]);
      assert.equal(warnings.length, 1);
    });
  }

  it("should give the visitor's outcomes a reason but log nothing: expired, timeout, aborted", async () => {
    const link = Response.json({ session: WAIT_ID, link: LINK });
    const expired = await outcomeOf({ fetch: server(link, 'expired') }, 2000);
    const timedOut = await outcomeOf({ fetch: server(link), seconds: 2 }, 3000);
    const controller = new AbortController();
    controller.abort();
    const aborted = await outcomeOf({ fetch: server(link), signal: controller.signal });
    assert.deepEqual([expired, timedOut, aborted].map((o) => o.outcome), Array(3).fill('not-connected'));
    assert.deepEqual([expired, timedOut, aborted].map((o) => o.failures.map((f) => f.reason)), [['expired'], ['timeout'], ['aborted']]);
    assert.deepEqual([expired, timedOut, aborted].flatMap((o) => o.warnings), []);
  });

  it('should never put the link or its code in a reason, a message or the console', async () => {
    // A server that echoes the link in its error text: the message keeps its words, not a code it never had.
    const seen = [];
    for (const code of [new Response('', { status: 403 }), new Response('', { status: 500 }), new TypeError(LINK)]) {
      const { failures, warnings } = await outcomeOf({ fetch: server(code) });
      seen.push(JSON.stringify(failures), ...warnings);
    }
    assert.ok(seen.every((text) => !text.includes('SECRET-CODE') && !text.includes('bringyourownagent://')), seen.join('\n'));
  });

  it('should keep its outcome when onFailure throws', async () => {
    const warned = mock.method(console, 'warn', () => {});
    try {
      const outcome = await startLink({
        open: () => {}, fetch: server(new Response('', { status: 403 })), onFailure: () => { throw new Error('page bug'); },
      });
      assert.equal(outcome, 'not-connected');
    } finally {
      warned.mock.restore();
    }
  });
});
