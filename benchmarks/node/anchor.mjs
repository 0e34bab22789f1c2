// @ts-check
/**
 * The Node.js anchor of benchmarks/byoa_calls.py: a direct-link server that
 * behaves as the spec's minimal server does (specs/byoa-sites.md, "A minimal
 * server (Node.js)"), written for this benchmark from that description, plus
 * two benchmark routes:
 *
 *   GET /_bench/links?n=N                     N fresh links (as POST /byoa/code gives one)
 *   GET /_bench/run?calls=N&inflight=K&call=FILE  N calls (FILE: {skill, input, params}) to every
 *                                             connected wallet but the idle ones, K at a time per wallet;
 *                                             answers {wallets, calls, failures, elapsed, p50, p99}
 *
 *   node benchmarks/node/anchor.mjs MANIFEST.json FD   (listens on the socket it is handed)
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';

const manifest64 = Buffer.from(JSON.stringify(JSON.parse(readFileSync(process.argv[2], 'utf8')))).toString('base64url');
const token = () => randomBytes(24).toString('base64url');
/** @type {Map<string, {expires: number, used: boolean}>} session code -> its state */
const codes = new Map();
/** @type {Map<string, any>} pairing token -> live socket, or null while away */
const wallets = new Map();

/** @param {string} host */
function newLink(host) {
  const session = token();
  codes.set(session, { expires: Date.now() + 120_000, used: false });
  const endpoint = encodeURIComponent(`ws://${host}/byoa/ws`);
  return { session, link: `bringyourownagent://connect?v=0.1&endpoint=${endpoint}&manifest=${manifest64}&session=${session}` };
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const answer = (/** @type {unknown} */ body) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method === 'POST' && url.pathname === '/byoa/code') return answer(newLink(req.headers.host ?? ''));
  if (req.method === 'GET' && url.pathname === '/byoa/wait') {
    const c = codes.get(url.searchParams.get('session') ?? '');
    return answer({ state: c?.used ? 'connected' : c && c.expires > Date.now() ? 'waiting' : 'expired' });
  }
  if (url.pathname === '/_bench/links') {
    const n = Number(url.searchParams.get('n'));
    return answer({ links: Array.from({ length: n }, () => newLink(req.headers.host ?? '').link) });
  }
  if (url.pathname === '/_bench/run') return answer(await run(url.searchParams));
  if (url.pathname === '/') return answer({});
  res.writeHead(404).end();
});

const wss = new WebSocketServer({ server, path: '/byoa/ws', maxPayload: 4 * 1024 * 1024 });
wss.on('connection', (ws) => {
  /** @type {Map<number, (frame: any) => void>} call id -> its resolver */
  const pending = new Map();
  /** @type {any} */ (ws).pending = pending;
  let pairing = '';
  const noHello = setTimeout(() => ws.close(1008, 'no hello'), 10_000);
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let frame;
    try { frame = JSON.parse(data.toString()); } catch { return ws.close(1007, 'malformed'); }
    if (!pairing) {
      if (frame?.type !== 'hello') return;
      clearTimeout(noHello);
      const code = codes.get(frame.session);
      if (code && !code.used && code.expires > Date.now()) {
        code.used = true;
        pairing = token();
      } else if (frame.session == null && wallets.has(frame.pairing)) {
        const older = wallets.get(frame.pairing);
        if (older) { older.send('{"type":"bye"}'); older.close(); }
        pairing = frame.pairing;
      } else {
        ws.send(JSON.stringify({ type: 'error', code: 'bad-session' }));
        return ws.close(1008, 'bad-session');
      }
      wallets.set(pairing, ws);
      /** @type {any} */ (ws).walletName = frame.wallet?.name;
      return ws.send(JSON.stringify({ type: 'welcome', pairing, manifest: manifest64 }));
    }
    if (frame.type === 'result') pending.get(frame.id)?.(frame);
    else if (frame.type === 'bye') ws.close();
  });
  ws.on('close', () => {
    clearTimeout(noHello);
    for (const resolve of pending.values()) resolve({ ok: false });
    if (pairing && wallets.get(pairing) === ws) wallets.set(pairing, null);
  });
});

let nextId = 0;
/**
 * Call a wallet: resolves with the output object, or null (failed, dropped, timed out).
 * @param {any} ws @param {string} skill @param {unknown} input @param {object} params @param {number} ms
 * @returns {Promise<object | null>}
 */
function callWallet(ws, skill, input, params, ms = 20_000) {
  const id = ++nextId;
  return new Promise((resolve) => {
    const done = (/** @type {object|null} */ output) => { clearTimeout(timer); ws.pending.delete(id); resolve(output); };
    const timer = setTimeout(() => done(null), ms);
    ws.pending.set(id, (/** @type {any} */ r) => done(r.ok && r.output && typeof r.output === 'object' ? r.output : null));
    ws.send(JSON.stringify({ type: 'call', id, skill, input, params }));
  });
}

/** @param {URLSearchParams} query */
async function run(query) {
  const perWallet = Number(query.get('calls'));
  const inflight = Number(query.get('inflight') ?? 4);
  const { skill, input, params } = JSON.parse(readFileSync(query.get('call') ?? '', 'utf8'));
  // Wallets that call themselves "idle" are only there to be connected.
  const live = [...wallets.values()].filter((ws) => ws && ws.readyState === ws.OPEN && ws.walletName !== 'idle');
  /** @type {number[]} */
  const latencies = [];
  let failures = 0;
  const started = performance.now();
  await Promise.all(live.map(async (ws) => {
    let left = perWallet;
    await Promise.all(Array.from({ length: Math.min(inflight, perWallet) }, async () => {
      while (left > 0) {
        left -= 1;
        const t = performance.now();
        if ((await callWallet(ws, skill, input, params)) === null) failures += 1;
        else latencies.push(performance.now() - t);
      }
    }));
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] / 1000 : null);
  return { wallets: live.length, calls: latencies.length, failures, elapsed, p50: at(0.5), p99: at(0.99) };
}

server.listen({ fd: Number(process.argv[3]) });
