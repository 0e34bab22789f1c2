// @ts-check
/**
 * Offer a page's MCP tools to the browser's own agent through WebMCP's `document.modelContext`
 * (https://webmachinelearning.github.io/webmcp/). Most browsers have no WebMCP: then nothing
 * happens and nothing fails.
 */

import { webMcpTool } from './tool.js';

/**
 * @typedef {object} ModelContext
 * The page's side of WebMCP. `registerTool` returns a promise in current builds (and nothing in
 * older ones); aborting the `signal` unregisters the tool. `unregisterTool` is the older builds' way.
 * @property {(tool: import('./tool.js').WebMcpTool, options?: { signal?: AbortSignal }) => Promise<void> | void} registerTool
 * @property {(name: string) => void} [unregisterTool]
 */
/**
 * @typedef {object} ExposeOptions
 * @property {AbortSignal} [signal] Aborting it unregisters the tools.
 * @property {ModelContext | null} [modelContext] The browser's; found with `findModelContext` by default.
 * @property {EventTarget} [window] Where `pagehide` fires; the page's window by default.
 */

/**
 * Return the browser's WebMCP model context, or null when it has none. `document.modelContext`
 * is the API since 2026; `navigator.modelContext` is where older builds and polyfills keep it.
 *
 * @param {any} [scope] The page's global object.
 * @returns {ModelContext | null}
 */
export function findModelContext(scope = globalThis) {
  return scope.document?.modelContext ?? scope.navigator?.modelContext ?? null;
}

/**
 * Register each tool of `source` with the browser's agent; resolve with their names, or with
 * none when the browser has no WebMCP. They stay until `signal` aborts or the page is hidden.
 * A registration the browser refuses unregisters the others and rejects.
 *
 * @param {import('./tool.js').McpSource} source
 * @param {ExposeOptions} [options]
 * @returns {Promise<string[]>}
 */
export async function exposeTools(source, { signal, modelContext = findModelContext(), window = globalThis } = {}) {
  if (!modelContext || signal?.aborted) return [];
  const tools = (await source.listMcpTools()).map((tool) => webMcpTool(tool, source));
  if (signal?.aborted) return [];
  const registered = new AbortController();
  const unregister = () => {
    if (registered.signal.aborted) return;
    registered.abort();
    for (const { name } of tools) modelContext.unregisterTool?.(name);
  };
  signal?.addEventListener('abort', unregister, { once: true });
  window.addEventListener?.('pagehide', unregister, { once: true });
  try {
    await Promise.all(tools.map((tool) => modelContext.registerTool(tool, { signal: registered.signal })));
  } catch (error) {
    if (registered.signal.aborted) return [];  // hidden or aborted meanwhile: nothing is left registered
    unregister();
    throw error;
  }
  return tools.map(({ name }) => name);
}
