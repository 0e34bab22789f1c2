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
export function findModelContext(scope?: any): ModelContext | null;
/**
 * Register each tool of `source` with the browser's agent; resolve with their names, or with
 * none when the browser has no WebMCP. They stay until `signal` aborts or the page is hidden.
 * A registration the browser refuses unregisters the others and rejects.
 *
 * @param {import('./tool.js').McpSource} source
 * @param {ExposeOptions} [options]
 * @returns {Promise<string[]>}
 */
export function exposeTools(source: import("./tool.js").McpSource, { signal, modelContext, window }?: ExposeOptions): Promise<string[]>;
/**
 * The page's side of WebMCP. `registerTool` returns a promise in current builds (and nothing in
 * older ones); aborting the `signal` unregisters the tool. `unregisterTool` is the older builds' way.
 */
export type ModelContext = {
    registerTool: (tool: import("./tool.js").WebMcpTool, options?: {
        signal?: AbortSignal;
    }) => Promise<void> | void;
    unregisterTool?: ((name: string) => void) | undefined;
};
export type ExposeOptions = {
    /**
     * Aborting it unregisters the tools.
     */
    signal?: AbortSignal | undefined;
    /**
     * The browser's; found with `findModelContext` by default.
     */
    modelContext?: ModelContext | null | undefined;
    /**
     * Where `pagehide` fires; the page's window by default.
     */
    window?: EventTarget | undefined;
};
