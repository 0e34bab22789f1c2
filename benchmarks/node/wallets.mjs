// @ts-check
/**
 * The load generator of benchmarks/byoa_calls.py: headless wallets that answer
 * every call at once, the same for every server measured.
 *
 * Reads commands on stdin, one JSON object a line, and answers each with one line:
 *   {"open": [link, ...], "name": "idle"?}  connect a wallet per link (hello with its code;
 *                          wallets named "idle" are never called by the servers' /_bench/run) -> {"opened": n}
 *   {"close": true}        say bye and close every wallet                   -> {"closed": n}
 */
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const GRANT = { skills: ['audio.transcribe', 'text.generate'], expiresAt: '2099-01-01T00:00:00Z' };
const RESULT_TAIL = ',"ok":true,"output":{"text":"Peru"},"receipt":{"cost":"0.000 USD","provider":"local"}}';
// A wallet pings every 30 s (the BYOA spec); the server closes one that stays silent for 1.5 times that.
const PING_MS = 30_000;
/** @type {WebSocket[]} */
let open = [];

setInterval(() => {
  for (const ws of open) if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
}, PING_MS).unref();

/** @param {string} link @param {string} [name] @returns {Promise<WebSocket>} */
function connect(link, name = 'bench wallet') {
  const query = new URL(link).searchParams;
  const ws = new WebSocket(query.get('endpoint') ?? '', { perMessageDeflate: false, maxPayload: 4 * 1024 * 1024 });
  return new Promise((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify({
      type: 'hello', v: '0.1', session: query.get('session'), pairing: null,
      wallet: { name, version: '0.1' }, grant: GRANT,
    })));
    ws.once('error', reject);
    ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('{"type":"call"')) {
        // Answer without parsing the whole call: its id comes first in every server's frame.
        const id = /"id":(\d+)/.exec(text)?.[1];
        ws.send(`{"type":"result","id":${id}${RESULT_TAIL}`);
        return;
      }
      const frame = JSON.parse(text);
      if (frame.type === 'welcome') resolve(ws);
      else if (frame.type === 'call') ws.send(`{"type":"result","id":${frame.id}${RESULT_TAIL}`);
      else if (frame.type === 'error') reject(new Error(frame.code));
    });
  });
}

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  if (command.open) {
    for (let i = 0; i < command.open.length; i += 50) {
      open.push(...await Promise.all(command.open.slice(i, i + 50).map((/** @type {string} */ link) => connect(link, command.name))));
    }
    console.log(JSON.stringify({ opened: open.length }));
  } else if (command.close) {
    const closing = open;
    open = [];
    await Promise.all(closing.map((ws) => new Promise((resolve) => {
      ws.once('close', resolve);
      ws.send('{"type":"bye"}');
      ws.close();
    })));
    console.log(JSON.stringify({ closed: closing.length }));
  }
}
