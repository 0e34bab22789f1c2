// @ts-check
/**
 * The Node.js anchor of benchmarks/visitor_action.py: one visitor action on a
 * direct-link server written for this benchmark from the spec's description
 * (specs/byoa-sites.md: the page asks POST /byoa/code for a link, the wallet
 * connects to /byoa/ws and says hello with the link's code, and the server calls
 * that visitor's wallet over its WebSocket), the same work the project's
 * benchmark view does:
 *
 *   GET  /_bench/page     the page: gives the browser its visitor cookie
 *   POST /byoa/code       a link for this visitor (cookie), as the spec's server issues one
 *   POST /_bench/action   {"question": text}: find this visitor's wallet by its cookie, ask it the
 *                         question (text.generate, maxTokens 16) and answer {"output": its output}
 *
 *   node benchmarks/node/visitor_action.mjs MANIFEST.json FD   (listens on the socket it is handed)
 *
 * The same wire shape as benchmarks/node/anchor.mjs (the anchor of byoa_calls.py); the
 * headless wallets are benchmarks/node/wallets.mjs.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';

const COOKIE = 'visitor';
const CALL_MS = 20_000;
const manifest64 = Buffer.from(JSON.stringify(JSON.parse(readFileSync(process.argv[2], 'utf8')))).toString('base64url');
const token = () => randomBytes(24).toString('base64url');
/** @type {Map<string, {visitor: string, expires: number, used: boolean}>} link code -> its visitor */
const codes = new Map();
/** @type {Map<string, any>} visitor -> the live socket of its newest pairing */
const wallets = new Map();

/** @param {string | undefined} header @returns {string} this request's visitor id, or "" */
function visitorOf(header) {
  for (const part of (header ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === COOKIE && value) return value;
  }
  return '';
}

/** @param {import('node:http').IncomingMessage} req @returns {Promise<string>} */
function body(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

let nextId = 0;
/**
 * Call a wallet: resolves with the output object, or null (failed, dropped, timed out).
 * @param {any} ws @param {string} skill @param {unknown} input @param {object} params
 * @returns {Promise<object | null>}
 */
function callWallet(ws, skill, input, params) {
  const id = ++nextId;
  return new Promise((resolve) => {
    const done = (/** @type {object | null} */ output) => { clearTimeout(timer); ws.pending.delete(id); resolve(output); };
    const timer = setTimeout(() => done(null), CALL_MS);
    ws.pending.set(id, (/** @type {any} */ r) => done(r.ok && r.output && typeof r.output === 'object' ? r.output : null));
    ws.send(JSON.stringify({ type: 'call', id, skill, input, params }));
  });
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const answer = (/** @type {unknown} */ value, /** @type {Record<string, string>} */ headers = {}) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  if (url.pathname === '/_bench/page' || url.pathname === '/') {
    const visitor = visitorOf(req.headers.cookie) || token();
    return answer({}, { 'set-cookie': `${COOKIE}=${visitor}; HttpOnly; SameSite=Lax; Path=/` });
  }
  const visitor = visitorOf(req.headers.cookie);
  if (req.method === 'POST' && url.pathname === '/byoa/code' && visitor) {
    await body(req);
    const session = token();
    codes.set(session, { visitor, expires: Date.now() + 120_000, used: false });
    const endpoint = encodeURIComponent(`ws://${req.headers.host}/byoa/ws`);
    return answer({ link: `bringyourownagent://connect?v=0.1&endpoint=${endpoint}&manifest=${manifest64}&session=${session}` });
  }
  if (req.method === 'POST' && url.pathname === '/_bench/action') {
    const { question } = JSON.parse(await body(req));
    const input = { messages: [{ role: 'user', content: String(question).slice(0, 500) }] };
    const ws = wallets.get(visitor);
    const output = ws && ws.readyState === ws.OPEN ? await callWallet(ws, 'text.generate', input, { maxTokens: 16 }) : null;
    return answer({ output });
  }
  res.writeHead(404).end();
});

const wss = new WebSocketServer({ server, path: '/byoa/ws', maxPayload: 4 * 1024 * 1024 });
wss.on('connection', (ws) => {
  /** @type {Map<number, (frame: any) => void>} call id -> its resolver */
  const pending = new Map();
  /** @type {any} */ (ws).pending = pending;
  let visitor = '';
  const noHello = setTimeout(() => ws.close(1008, 'no hello'), 10_000);
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let frame;
    try { frame = JSON.parse(data.toString()); } catch { return ws.close(1007, 'malformed'); }
    if (!visitor) {
      if (frame?.type !== 'hello') return;
      clearTimeout(noHello);
      const code = codes.get(frame.session);
      if (!code || code.used || code.expires <= Date.now()) {
        ws.send(JSON.stringify({ type: 'error', code: 'bad-session' }));
        return ws.close(1008, 'bad-session');
      }
      code.used = true;
      visitor = code.visitor;
      wallets.set(visitor, ws);
      return ws.send(JSON.stringify({ type: 'welcome', pairing: token(), manifest: manifest64 }));
    }
    if (frame.type === 'result') pending.get(frame.id)?.(frame);
    else if (frame.type === 'bye') ws.close();
  });
  ws.on('close', () => {
    clearTimeout(noHello);
    for (const resolve of pending.values()) resolve({ ok: false });
    if (visitor && wallets.get(visitor) === ws) wallets.delete(visitor);
  });
});

server.listen({ fd: Number(process.argv[3]) });
