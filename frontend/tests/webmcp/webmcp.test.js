// @ts-check
/**
 * frontend/webmcp: the mapping of MCP tools to WebMCP tools (schema, annotations, results,
 * errors) and their registration's life (abort, pagehide, a browser without WebMCP), against a
 * model context that records what the page gives it and, end to end, a real MCP server.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';

import { McpToolSource } from '../../aiconnect/mcp.js';
import * as webmcp from '../../webmcp/index.js';
import { exposeTools, findModelContext, webMcpTool } from '../../webmcp/index.js';
import { startMcpServer } from '../helpers/mcp-server.js';

/** @typedef {import('../../webmcp/tool.js').WebMcpTool} WebMcpTool */

/** A stand-in of `document.modelContext` that keeps the registered tools until their signal aborts. */
class RecordingModelContext {
  /** @type {Map<string, WebMcpTool>} */
  tools = new Map();
  /** @type {Set<string>} */
  refuse = new Set();

  /**
   * @param {WebMcpTool} tool
   * @param {{ signal?: AbortSignal }} [options]
   */
  async registerTool(tool, { signal } = {}) {
    if (this.refuse.has(tool.name)) throw new DOMException(`Duplicate tool name: ${tool.name}`, 'InvalidStateError');
    this.tools.set(tool.name, tool);
    signal?.addEventListener('abort', () => this.tools.delete(tool.name), { once: true });
  }
}

/** An MCP source with two tools, whose calls answer from `answers` or throw. */
function fakeSource(/** @type {Record<string, any>} */ answers = {}) {
  const calls = /** @type {[string, Record<string, unknown>][]} */ ([]);
  return {
    calls,
    listed: 0,
    async listMcpTools() {
      this.listed += 1;
      return [
        {
          name: 'search_books', title: 'Search books', description: 'Search the catalog.',
          inputSchema: { type: 'object', properties: { mood: { type: 'string' } }, additionalProperties: false },
          annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
        },
        { name: 'add_to_basket', inputSchema: { type: 'object' } },
      ];
    },
    /** @param {string} name @param {Record<string, unknown>} args */
    async callMcpTool(name, args) {
      calls.push([name, args]);
      const answer = answers[name];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('webMcpTool', () => {
  it('should keep the name, title, description and input schema as MCP gives them', async () => {
    const source = fakeSource();
    const [listed] = await source.listMcpTools();
    const tool = webMcpTool(listed, source);
    assert.equal(tool.name, 'search_books');
    assert.equal(tool.title, 'Search books');
    assert.equal(tool.description, 'Search the catalog.');
    assert.deepEqual(tool.inputSchema, listed.inputSchema);
  });

  it('should map readOnlyHint, and a closed world to trusted content', () => {
    const tool = webMcpTool({ name: 't', inputSchema: {}, annotations: { readOnlyHint: true, openWorldHint: false } }, fakeSource());
    assert.deepEqual(tool.annotations, { readOnlyHint: true, untrustedContentHint: false });
  });

  it('should mark an open-world tool, or one with no hints (MCP\'s default is an open world), as untrusted', () => {
    const open = webMcpTool({ name: 't', inputSchema: {}, annotations: { openWorldHint: true } }, fakeSource());
    assert.deepEqual(open.annotations, { readOnlyHint: false, untrustedContentHint: true });
    const silent = webMcpTool({ name: 't', inputSchema: {} }, fakeSource());
    assert.deepEqual(silent.annotations, { readOnlyHint: false, untrustedContentHint: true });
    assert.equal(silent.description, '');
    assert.equal('title' in silent, false);
  });

  it('should take the title from the annotations where an older server put it', () => {
    const tool = webMcpTool({ name: 't', inputSchema: {}, annotations: { title: 'Old style' } }, fakeSource());
    assert.equal(tool.title, 'Old style');
  });

  it('should resolve execute with the MCP result, calling the tool with the agent\'s input', async () => {
    const result = { content: [{ type: 'text', text: '1 book' }], isError: false, structuredContent: { books: [{ slug: 'dune' }] } };
    const source = fakeSource({ search_books: result });
    const tool = webMcpTool((await source.listMcpTools())[0], source);
    assert.deepEqual(await tool.execute({ mood: 'calm' }), result);
    assert.deepEqual(source.calls, [['search_books', { mood: 'calm' }]]);
  });

  it('should call a tool given no input with an empty object', async () => {
    const source = fakeSource({ add_to_basket: { content: [], isError: false } });
    await webMcpTool((await source.listMcpTools())[1], source).execute(undefined);
    assert.deepEqual(source.calls, [['add_to_basket', {}]]);
  });

  it('should resolve a tool error marked isError as it came', async () => {
    const failed = { content: [{ type: 'text', text: 'There is no mood \'grumpy\'. Use one of: calm.' }], isError: true };
    const source = fakeSource({ search_books: failed });
    assert.deepEqual(await webMcpTool((await source.listMcpTools())[0], source).execute({ mood: 'grumpy' }), failed);
  });

  it('should resolve, never reject, when the call itself fails, with isError and the reason', async () => {
    const source = fakeSource({ search_books: new Error('The MCP server at http://shop.test/api/mcp answered 503') });
    const result = await webMcpTool((await source.listMcpTools())[0], source).execute({});
    assert.deepEqual(result, {
      content: [{ type: 'text', text: 'The tool search_books could not be called: The MCP server at http://shop.test/api/mcp answered 503' }],
      isError: true,
    });
  });
});

describe('exposeTools', () => {
  it('should register every tool with the model context and resolve with their names', async () => {
    const modelContext = new RecordingModelContext();
    const names = await exposeTools(fakeSource(), { modelContext, window: new EventTarget() });
    assert.deepEqual(names, ['search_books', 'add_to_basket']);
    assert.deepEqual([...modelContext.tools.keys()], ['search_books', 'add_to_basket']);
  });

  it('should do nothing, list nothing and fail nowhere in a browser without WebMCP', async () => {
    const source = fakeSource();
    assert.deepEqual(await exposeTools(source, { modelContext: null }), []);
    assert.equal(source.listed, 0);
    assert.equal(findModelContext({ document: {}, navigator: {} }), null);
    assert.equal(findModelContext({}), null);
  });

  it('should find document.modelContext first, then navigator.modelContext of older builds and polyfills', () => {
    const current = new RecordingModelContext();
    const older = new RecordingModelContext();
    assert.equal(findModelContext({ document: { modelContext: current }, navigator: { modelContext: older } }), current);
    assert.equal(findModelContext({ document: {}, navigator: { modelContext: older } }), older);
  });

  it('should unregister the tools when the signal aborts', async () => {
    const modelContext = new RecordingModelContext();
    const controller = new AbortController();
    await exposeTools(fakeSource(), { modelContext, signal: controller.signal, window: new EventTarget() });
    controller.abort();
    assert.equal(modelContext.tools.size, 0);
  });

  it('should unregister the tools when the page is hidden', async () => {
    const modelContext = new RecordingModelContext();
    const window = new EventTarget();
    await exposeTools(fakeSource(), { modelContext, window });
    window.dispatchEvent(new Event('pagehide'));
    assert.equal(modelContext.tools.size, 0);
  });

  it('should call unregisterTool too, for older builds that ignore the signal', async () => {
    const modelContext = Object.assign(new RecordingModelContext(), { unregistered: /** @type {string[]} */ ([]) });
    /** @param {string} name */
    const unregisterTool = (name) => { modelContext.unregistered.push(name); };
    const controller = new AbortController();
    await exposeTools(fakeSource(), { modelContext: Object.assign(modelContext, { unregisterTool }), signal: controller.signal, window: new EventTarget() });
    controller.abort();
    assert.deepEqual(modelContext.unregistered, ['search_books', 'add_to_basket']);
  });

  it('should register nothing when the signal is already aborted', async () => {
    const modelContext = new RecordingModelContext();
    const source = fakeSource();
    assert.deepEqual(await exposeTools(source, { modelContext, signal: AbortSignal.abort() }), []);
    assert.equal(modelContext.tools.size, 0);
    assert.equal(source.listed, 0);
  });

  it('should reject with the browser\'s refusal and leave none of the tools registered', async () => {
    const modelContext = new RecordingModelContext();
    modelContext.refuse.add('add_to_basket');
    await assert.rejects(exposeTools(fakeSource(), { modelContext, window: new EventTarget() }), /Duplicate tool name: add_to_basket/);
    assert.equal(modelContext.tools.size, 0);
  });

  it('should reject when the tools cannot be listed, registering nothing', async () => {
    const modelContext = new RecordingModelContext();
    const source = { ...fakeSource(), listMcpTools: async () => { throw new Error('The MCP server at /api/mcp answered 403'); } };
    await assert.rejects(exposeTools(source, { modelContext }), /answered 403/);
    assert.equal(modelContext.tools.size, 0);
  });
});

describe('exposeTools with McpToolSource and a real MCP server', () => {
  /** @type {Awaited<ReturnType<typeof startMcpServer>>} */
  let server;
  before(async () => { server = await startMcpServer(); });
  after(() => server.close());

  it('should offer the server\'s tools and answer the agent with the server\'s results', async () => {
    const modelContext = new RecordingModelContext();
    await exposeTools(new McpToolSource(server.url), { modelContext, window: new EventTarget() });
    const search = /** @type {WebMcpTool} */ (modelContext.tools.get('search_books'));
    assert.equal(search.title, 'Search books');
    assert.deepEqual(search.annotations, { readOnlyHint: true, untrustedContentHint: false });
    assert.deepEqual(Object.keys(/** @type {object} */ (search.inputSchema.properties)), ['mood']);
    const found = await search.execute({ mood: 'calm' });
    assert.equal(found.isError, false);
    assert.equal(found.content[0].text, 'Piranesi (calm)');
    const crashed = await /** @type {WebMcpTool} */ (modelContext.tools.get('crash')).execute({});
    assert.equal(crashed.isError, true);
    assert.match(String(crashed.content[0].text), /the shelf fell over/);
  });
});

describe('frontend/webmcp surface', () => {
  it('should export exposeTools, findModelContext and webMcpTool from an index that only re-exports', async () => {
    assert.deepEqual(Object.keys(webmcp).sort(), ['exposeTools', 'findModelContext', 'webMcpTool']);
    const index = await readFile(new URL('../../webmcp/index.js', import.meta.url), 'utf8');
    const code = index.split('\n').filter((line) => line.trim() && !line.startsWith('//') && !line.startsWith('/**'));
    assert.ok(code.every((line) => line.startsWith('export {')), code.join('\n'));
  });

  it('should check every module\'s types', async () => {
    const root = new URL('../../webmcp/', import.meta.url);
    for (const name of await readdir(root)) {
      assert.match(await readFile(new URL(name, root), 'utf8'), /^\/\/ @ts-check\n/, name);
    }
  });
});
