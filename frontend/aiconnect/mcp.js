// @ts-check
/**
 * `McpToolSource` (specs/aiconnect-core.md; MCP 2025-06-18, "Transports: Streamable HTTP", summarised in
 * docs/specs/mcp-streamable-http.md).
 * Hand-written, not the official SDK, for page weight: a page needs four messages over one
 * transport, and the SDK's client with its validator weighs many times this whole library.
 */

import { toolResultText } from './content.js';

/** @typedef {import('./types.js').ToolDefinition} ToolDefinition */
/** @typedef {import('./types.js').ToolResult} ToolResult */
/** @typedef {import('./types.js').McpTool} McpTool */
/** @typedef {import('./types.js').McpToolResult} McpToolResult */

const PROTOCOL_VERSION = '2025-06-18';

/** The site's tools, read from its MCP server over Streamable HTTP. Implements `ToolSource`. */
export class McpToolSource {
  #url;
  #clientName;
  #nextId = 1;
  /** @type {string | null} */
  #sessionId = null;
  /** @type {string | null} */
  #version = null;
  /** @type {Promise<void> | null} */
  #connected = null;
  /** @type {Promise<ToolDefinition[]> | null} */
  #tools = null;
  /** @type {Promise<McpTool[]> | null} */
  #mcpTools = null;

  /**
   * @param {string | URL} url The server's address; a relative one resolves against the page's.
   * @param {string} [clientName] The client name the server sees when the client initializes.
   */
  constructor(url, clientName = 'aiconnect') {
    const base = globalThis.location?.href;
    if (!base && !URL.canParse(String(url))) {
      throw new TypeError(`McpToolSource needs an absolute URL outside a page, got "${url}".`);
    }
    this.#url = new URL(url, base);
    this.#clientName = clientName;
  }

  /**
   * Return the server's tools, read once and kept. A failed attempt is forgotten.
   *
   * @returns {Promise<ToolDefinition[]>}
   */
  listTools() {
    return this.#tools ??= forgetFailure(
      this.listMcpTools().then((tools) => tools.map(({ name, description = '', inputSchema }) => ({ name, description, inputSchema }))),
      () => { this.#tools = null; },
    );
  }

  /**
   * Return the server's tools as MCP lists them, with their `title` and `annotations` (what a
   * browser agent is told, frontend/webmcp/); read once with `listTools`'s list and kept.
   *
   * @returns {Promise<McpTool[]>}
   */
  listMcpTools() {
    return this.#mcpTools ??= forgetFailure(this.#readTools(), () => { this.#mcpTools = null; });
  }

  /**
   * Call a tool; return what the model reads: its text parts joined with line breaks, prefixed
   * with `Tool error: ` when the result is marked `isError`.
   *
   * @param {string} name
   * @param {Record<string, unknown>} args
   * @returns {Promise<string>}
   */
  async callTool(name, args) {
    return toolResultText(await this.callToolResult(name, args));
  }

  /**
   * Call a tool; return its whole result for the page: the text, whether it failed (`isError`)
   * and its structured content. It rejects where `callTool` does (a refused request, a failed
   * POST); a tool that failed on the server resolves with `isError: true`.
   *
   * @param {string} name
   * @param {Record<string, unknown>} args
   * @returns {Promise<ToolResult>}
   */
  async callToolResult(name, args) {
    const { content, isError, structuredContent } = await this.callMcpTool(name, args);
    const text = content.filter((part) => part?.type === 'text').map((part) => part.text).join('\n');
    /** @type {ToolResult} */
    const whole = { text, isError };
    if (structuredContent) whole.structuredContent = structuredContent;
    return whole;
  }

  /**
   * Call a tool; return its result as MCP gives it: every content part (images too), `isError`,
   * and `structuredContent` when it is a JSON object. It rejects where `callTool` does.
   *
   * @param {string} name
   * @param {Record<string, unknown>} args
   * @returns {Promise<McpToolResult>}
   */
  async callMcpTool(name, args) {
    const result = await this.#request('tools/call', { name, arguments: args });
    /** @type {McpToolResult} */
    const whole = { content: Array.isArray(result?.content) ? result.content : [], isError: result?.isError === true };
    if (isJsonObject(result?.structuredContent)) whole.structuredContent = result.structuredContent;
    return whole;
  }

  async #readTools() {
    /** @type {McpTool[]} */
    const tools = [];
    let cursor;
    do {
      const page = await this.#request('tools/list', cursor ? { cursor } : {});
      for (const { name, title, description, inputSchema, annotations } of page?.tools ?? []) {
        /** @type {McpTool} */
        const tool = { name, inputSchema };
        if (typeof title === 'string') tool.title = title;
        if (typeof description === 'string') tool.description = description;
        if (isJsonObject(annotations)) tool.annotations = annotations;
        tools.push(tool);
      }
      cursor = page?.nextCursor;
    } while (cursor);
    return tools;
  }

  /** Initialize once per session. */
  #connect() {
    return this.#connected ??= forgetFailure((async () => {
      const result = await this.#exchange('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: this.#clientName, version: '1.0.0' },
      });
      this.#version = result?.protocolVersion ?? PROTOCOL_VERSION;
      await this.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    })(), () => { this.#connected = null; });
  }

  /**
   * @param {string} method
   * @param {object} params
   */
  async #request(method, params) {
    await this.#connect();
    try {
      return await this.#exchange(method, params);
    } catch (error) {
      // A 404 to a request with a session id: the server ended the session, so the client
      // starts a new one and asks again (MCP 2025-06-18, "Session Management", item 4).
      if (/** @type {any} */ (error).status !== 404 || !this.#sessionId) throw error;
      this.#sessionId = null;
      this.#connected = null;
      await this.#connect();
      return this.#exchange(method, params);
    }
  }

  /**
   * POST one JSON-RPC request and return its result, from a JSON body or an SSE stream.
   *
   * @param {string} method
   * @param {object} params
   * @returns {Promise<any>}
   */
  async #exchange(method, params) {
    const id = this.#nextId++;
    const response = await this.#post({ jsonrpc: '2.0', id, method, params });
    const message = response.headers.get('Content-Type')?.startsWith('text/event-stream')
      ? await responseInStream(response, id)
      : await response.json();
    if (message.error) {
      throw new Error(`The MCP server refused ${method}: ${message.error.message} (${message.error.code})`);
    }
    return message.result;
  }

  /** @param {object} message */
  async #post(message) {
    /** @type {Record<string, string>} */
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (this.#sessionId) headers['Mcp-Session-Id'] = this.#sessionId;
    if (this.#version) headers['MCP-Protocol-Version'] = this.#version;
    const response = await fetch(this.#url, { method: 'POST', headers, body: JSON.stringify(message) });
    if (!response.ok) {
      await response.body?.cancel();
      throw Object.assign(new Error(`The MCP server at ${this.#url} answered ${response.status}`), { status: response.status });
    }
    this.#sessionId = response.headers.get('Mcp-Session-Id') ?? this.#sessionId;
    return response;
  }
}

/**
 * Whether a value is a JSON object, as MCP's `structuredContent` must be (not null, not an array).
 *
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isJsonObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {() => void} forget
 * @returns {Promise<T>}
 */
function forgetFailure(promise, forget) {
  return promise.catch((error) => {
    forget();
    throw error;
  });
}

/**
 * Read an SSE response until the JSON-RPC response with `id`; skip the server's other messages.
 *
 * @param {Response} response
 * @param {number} id
 * @returns {Promise<any>}
 */
async function responseInStream(response, id) {
  const reader = /** @type {ReadableStream<Uint8Array>} */ (response.body).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`The MCP server's stream ended before the response to request ${id}`);
      // A lone \r at the end may be the first half of a \r\n split across two chunks.
      buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n|\r(?!$)/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer.slice(0, end).split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(line[5] === ' ' ? 6 : 5))
          .join('\n');
        buffer = buffer.slice(end + 2);
        const message = data && JSON.parse(data);
        if (message?.id === id && (message.result || message.error)) return message;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
