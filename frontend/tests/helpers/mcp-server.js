// @ts-check
/**
 * A real MCP server for tests, built with the official TypeScript SDK
 * (`@modelcontextprotocol/sdk`) and served with Streamable HTTP on a free loopback port.
 *
 * It records each POST (its JSON-RPC method and headers) and can fail the next POST or forget
 * its sessions, so a client's error paths can be driven. Stop it with `close()` in `after`.
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

/**
 * Return an MCP server with a small bookshop's tools.
 *
 * @param {string[]} clientNames Where to record the client name each session initializes with.
 */
export function buildBookshopServer(clientNames) {
  const server = new McpServer({ name: 'test-bookshop', version: '1.0.0' });
  server.registerTool('search_books', {
    title: 'Search books',
    description: 'Find books by mood.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: { mood: z.string().describe('How the reader wants to feel') },
  }, async ({ mood }) => ({
    content: [{ type: 'text', text: `Piranesi (${mood})` }, { type: 'text', text: 'The Remains of the Day' }],
    structuredContent: { books: [{ slug: 'piranesi', mood }, { slug: 'the-remains-of-the-day', mood }] },
  }));
  server.registerTool('get_book', {
    description: 'One book by id.',
    inputSchema: { id: z.number() },
  }, async ({ id }) => (id === 404
    ? { isError: true, content: [{ type: 'text', text: `No book ${id}` }] }
    : { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: `Book ${id}` }] }));
  server.registerTool('crash', { description: 'Always throws.' }, async () => {
    throw new Error('the shelf fell over');
  });
  server.server.oninitialized = () => {
    clientNames.push(server.server.getClientVersion()?.name ?? '');
  };
  return server;
}

/**
 * Start the server on 127.0.0.1 at a free port.
 *
 * @param {{ json?: boolean, stateless?: boolean }} [options] `json` answers with JSON bodies
 *   rather than SSE streams; `stateless` hands out no session ids.
 */
export async function startMcpServer({ json = false, stateless = false } = {}) {
  /** @type {{ method: string, headers: import('node:http').IncomingHttpHeaders }[]} */
  const posts = [];
  /** @type {string[]} */
  const clientNames = [];
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();
  /** @type {number[]} */
  const failures = [];
  /** @type {((body: any, res: import('node:http').ServerResponse) => void)[]} */
  const answers = [];

  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    if (req.method === 'POST') posts.push({ method: body?.method ?? '', headers: req.headers });
    const failure = failures.shift();
    if (failure) {
      res.writeHead(failure, { 'Content-Type': 'text/plain' }).end('failed on purpose');
      return;
    }
    const answer = req.method === 'POST' ? answers.shift() : undefined;
    if (answer) return answer(body, res);
    const id = req.headers['mcp-session-id'];
    /** @type {StreamableHTTPServerTransport | undefined} */
    let transport;
    if (typeof id === 'string') {
      transport = sessions.get(id);
      if (!transport) {
        res.writeHead(404, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
    } else {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: stateless ? undefined : () => randomUUID(),
        enableJsonResponse: json,
        onsessioninitialized: (sessionId) => { sessions.set(sessionId, /** @type {any} */ (transport)); },
      });
      await buildBookshopServer(clientNames).connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (http.address());

  return {
    url: `http://127.0.0.1:${port}/api/mcp`,
    origin: `http://127.0.0.1:${port}`,
    posts,
    clientNames,
    /** Answer the next POST with this HTTP status. @param {number} status */
    failNext(status) { failures.push(status); },
    /**
     * Answer the next POST with this function instead of the MCP server.
     * @param {(body: any, res: import('node:http').ServerResponse) => void} answer
     */
    answerNext(answer) { answers.push(answer); },
    /** Forget every session, as a restarted server does. */
    forgetSessions() { sessions.clear(); },
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(() => resolve(undefined)));
    },
  };
}
