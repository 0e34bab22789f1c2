// @ts-check
/**
 * McpToolSource against a real server built with the official MCP TypeScript SDK.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { McpToolSource } from '../../aiconnect/mcp.js';
import { startMcpServer } from '../helpers/mcp-server.js';

for (const mode of /** @type {const} */ (['sse', 'json'])) {
  describe(`McpToolSource with ${mode === 'sse' ? 'SSE' : 'JSON'} responses`, () => {
    /** @type {Awaited<ReturnType<typeof startMcpServer>>} */
    let server;
    before(async () => { server = await startMcpServer({ json: mode === 'json' }); });
    after(() => server.close());

    it('should initialize with its client name, then list the tools', async () => {
      const tools = new McpToolSource(server.url, 'Bookshop');
      const definitions = await tools.listTools();
      assert.deepEqual(definitions.map((d) => d.name), ['search_books', 'get_book', 'crash']);
      const search = definitions[0];
      assert.equal(search.description, 'Find books by mood.');
      assert.equal(search.inputSchema.type, 'object');
      assert.deepEqual(Object.keys(/** @type {object} */ (search.inputSchema.properties)), ['mood']);
      assert.equal(server.clientNames.at(-1), 'Bookshop');
    });

    it('should list the tools as MCP gives them, title and annotations included, in the same one read', async () => {
      const tools = new McpToolSource(server.url);
      const start = server.posts.length;
      const [listed, definitions] = await Promise.all([tools.listMcpTools(), tools.listTools()]);
      assert.deepEqual(server.posts.slice(start).map((p) => p.method), ['initialize', 'notifications/initialized', 'tools/list']);
      assert.equal(listed[0].title, 'Search books');
      assert.deepEqual(listed[0].annotations, { readOnlyHint: true, openWorldHint: false });
      assert.equal(listed[2].annotations, undefined);
      assert.deepEqual(Object.keys(definitions[0]), ['name', 'description', 'inputSchema']);
    });

    it('should give a call\'s whole MCP result: every content part, isError and the structured content', async () => {
      const tools = new McpToolSource(server.url);
      assert.deepEqual(await tools.callMcpTool('get_book', { id: 7 }), {
        content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: 'Book 7' }], isError: false,
      });
      const found = await tools.callMcpTool('search_books', { mood: 'calm' });
      assert.equal(found.isError, false);
      assert.deepEqual(found.structuredContent?.books, [{ slug: 'piranesi', mood: 'calm' }, { slug: 'the-remains-of-the-day', mood: 'calm' }]);
      assert.equal((await tools.callMcpTool('get_book', { id: 404 })).isError, true);
    });

    it('should name itself aiconnect by default', async () => {
      await new McpToolSource(server.url).listTools();
      assert.equal(server.clientNames.at(-1), 'aiconnect');
    });

    it('should send initialize, the initialized notification, then tools/list', async () => {
      const start = server.posts.length;
      await new McpToolSource(server.url).listTools();
      assert.deepEqual(server.posts.slice(start).map((p) => p.method), ['initialize', 'notifications/initialized', 'tools/list']);
    });

    it('should read the tool list once and keep it', async () => {
      const tools = new McpToolSource(server.url);
      const first = await tools.listTools();
      const start = server.posts.length;
      assert.equal(await tools.listTools(), first);
      assert.equal(server.posts.length, start);
    });

    it('should repeat the session id the server gave, and the protocol version', async () => {
      const tools = new McpToolSource(server.url);
      const start = server.posts.length;
      await tools.listTools();
      await tools.callTool('search_books', { mood: 'calm' });
      const [init, ...rest] = server.posts.slice(start);
      assert.equal(init.headers['mcp-session-id'], undefined);
      const ids = new Set(rest.map((p) => p.headers['mcp-session-id']));
      assert.equal(ids.size, 1);
      assert.match(String([...ids][0]), /^[0-9a-f-]{36}$/);
      assert.ok(rest.every((p) => typeof p.headers['mcp-protocol-version'] === 'string'));
    });

    it('should join the text parts of a result with line breaks', async () => {
      const text = await new McpToolSource(server.url).callTool('search_books', { mood: 'calm' });
      assert.equal(text, 'Piranesi (calm)\nThe Remains of the Day');
    });

    it('should leave the non-text parts out', async () => {
      assert.equal(await new McpToolSource(server.url).callTool('get_book', { id: 7 }), 'Book 7');
    });

    it('should prefix a result marked isError with Tool error', async () => {
      assert.equal(await new McpToolSource(server.url).callTool('get_book', { id: 404 }), 'Tool error: No book 404');
    });

    it('should return a tool that throws on the server as a Tool error', async () => {
      const text = await new McpToolSource(server.url).callTool('crash', {});
      assert.match(text, /^Tool error: .*the shelf fell over/);
    });

    it('should give the page the structured content beside the text the model reads', async () => {
      const tools = new McpToolSource(server.url);
      assert.deepEqual(await tools.callToolResult('search_books', { mood: 'calm' }), {
        text: 'Piranesi (calm)\nThe Remains of the Day',
        isError: false,
        structuredContent: { books: [{ slug: 'piranesi', mood: 'calm' }, { slug: 'the-remains-of-the-day', mood: 'calm' }] },
      });
      assert.equal(await tools.callTool('search_books', { mood: 'calm' }), 'Piranesi (calm)\nThe Remains of the Day');
    });

    it('should say a result marked isError failed, with its text unprefixed and no structured content', async () => {
      const result = await new McpToolSource(server.url).callToolResult('get_book', { id: 404 });
      assert.deepEqual(result, { text: 'No book 404', isError: true });
    });

    it('should give a result without structured content none', async () => {
      assert.deepEqual(await new McpToolSource(server.url).callToolResult('get_book', { id: 7 }), { text: 'Book 7', isError: false });
    });
  });
}

describe('McpToolSource failures', () => {
  /** @type {Awaited<ReturnType<typeof startMcpServer>>} */
  let server;
  before(async () => { server = await startMcpServer(); });
  after(() => server.close());

  it('should forget a failed attempt and ask the server again', async () => {
    const tools = new McpToolSource(server.url);
    server.failNext(500);
    await assert.rejects(tools.listTools(), /answered 500/);
    assert.equal((await tools.listTools()).length, 3);
  });

  it('should forget a tools/list that failed after initializing', async () => {
    const tools = new McpToolSource(server.url);
    await tools.callTool('search_books', { mood: 'x' });
    server.failNext(503);
    await assert.rejects(tools.listTools(), /answered 503/);
    assert.equal((await tools.listTools()).length, 3);
  });

  it('should start a new session when the server forgot the old one', async () => {
    const tools = new McpToolSource(server.url);
    await tools.listTools();
    server.forgetSessions();
    const start = server.posts.length;
    assert.equal(await tools.callTool('search_books', { mood: 'new' }), 'Piranesi (new)\nThe Remains of the Day');
    assert.deepEqual(server.posts.slice(start).map((p) => p.method),
      ['tools/call', 'initialize', 'notifications/initialized', 'tools/call']);
  });

  it('should return an unknown tool as the Tool error the server gives', async () => {
    assert.match(await new McpToolSource(server.url).callTool('no_such_tool', {}), /^Tool error: .*no_such_tool/);
  });

  it('should reject a JSON-RPC error with its message', async () => {
    const tools = new McpToolSource(server.url);
    await tools.listTools();
    server.answerNext((body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32603, message: 'database locked' } }));
    });
    await assert.rejects(tools.callTool('search_books', { mood: 'x' }), { message: /tools\/call: database locked \(-32603\)/ });
  });

  it('should skip the server\'s other messages on an SSE stream until its response', async () => {
    const tools = new McpToolSource(server.url);
    await tools.listTools();
    server.answerNext((body, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('event: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\r\n\r\n');
      res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: 'streamed' }] } })}\n\n`);
      res.end();
    });
    assert.equal(await tools.callTool('search_books', { mood: 'x' }), 'streamed');
  });
});

describe('McpToolSource results from a server that breaks the rules', () => {
  /** @type {Awaited<ReturnType<typeof startMcpServer>>} */
  let server;
  before(async () => { server = await startMcpServer({ json: true }); });
  after(() => server.close());

  /** @param {unknown} result what the server answers to the next tools/call */
  async function callWith(result) {
    const tools = new McpToolSource(server.url);
    await tools.listTools();
    server.answerNext((body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
    });
    return tools.callToolResult('search_books', { mood: 'x' });
  }

  for (const structuredContent of [[{ slug: 'dune' }], 'dune', 7, null]) {
    it(`should leave out structured content that is not a JSON object (${JSON.stringify(structuredContent)})`, async () => {
      const result = await callWith({ content: [{ type: 'text', text: 'ok' }], structuredContent });
      assert.deepEqual(result, { text: 'ok', isError: false });
    });
  }

  it('should read only isError true as a failure', async () => {
    assert.equal((await callWith({ content: [{ type: 'text', text: 'ok' }], isError: 'yes' })).isError, false);
  });

  it('should read a result without a content list as empty text', async () => {
    assert.deepEqual(await callWith({ content: 'Dune', structuredContent: { books: [] } }),
      { text: '', isError: false, structuredContent: { books: [] } });
  });
});

describe('McpToolSource without sessions', () => {
  it('should work with a stateless server that gives no session id', async () => {
    const server = await startMcpServer({ stateless: true, json: true });
    try {
      const tools = new McpToolSource(server.url);
      assert.equal((await tools.listTools()).length, 3);
      assert.equal(await tools.callTool('get_book', { id: 1 }), 'Book 1');
      assert.ok(server.posts.every((p) => p.headers['mcp-session-id'] === undefined));
    } finally {
      await server.close();
    }
  });
});

describe('McpToolSource addresses', () => {
  it('should resolve a relative URL against the page', async () => {
    const server = await startMcpServer();
    const g = /** @type {any} */ (globalThis);
    g.location = { href: `${server.origin}/books/calm/` };
    try {
      assert.equal((await new McpToolSource('/api/mcp').listTools()).length, 3);
    } finally {
      delete g.location;
      await server.close();
    }
  });

  it('should take a URL object', async () => {
    const server = await startMcpServer();
    try {
      assert.equal((await new McpToolSource(new URL(server.url)).listTools()).length, 3);
    } finally {
      await server.close();
    }
  });

  it('should ask for an absolute URL outside a page', () => {
    assert.throws(() => new McpToolSource('/api/mcp'), { name: 'TypeError', message: /absolute URL/ });
  });
});
