/**
 * One MCP tool as a WebMCP tool (https://webmachinelearning.github.io/webmcp/, "ModelContextTool"):
 * the same name, title, description and input schema, MCP's hints as WebMCP's, and an `execute`
 * that calls the tool through the page's own MCP client.
 */
/** @typedef {import('../aiconnect/types.js').McpTool} McpTool */
/** @typedef {import('../aiconnect/types.js').McpToolResult} McpToolResult */
/**
 * @typedef {object} McpSource
 * What `exposeTools` needs of an MCP client; `McpToolSource` is one.
 * @property {() => Promise<McpTool[]>} listMcpTools
 * @property {(name: string, args: Record<string, unknown>) => Promise<McpToolResult>} callMcpTool
 */
/**
 * @typedef {object} WebMcpAnnotations
 * @property {boolean} readOnlyHint The tool changes nothing.
 * @property {boolean} untrustedContentHint Its results carry text the site does not vouch for.
 */
/**
 * @typedef {object} WebMcpTool
 * What `document.modelContext.registerTool` takes.
 * @property {string} name
 * @property {string} [title]
 * @property {string} description
 * @property {import('../aiconnect/types.js').JsonSchema} inputSchema
 * @property {WebMcpAnnotations} annotations
 * @property {(input: Record<string, unknown> | null | undefined) => Promise<McpToolResult>} execute
 */
/**
 * Return the WebMCP tool for an MCP tool of `source`.
 *
 * @param {McpTool} tool
 * @param {McpSource} source
 * @returns {WebMcpTool}
 */
export function webMcpTool(tool: McpTool, source: McpSource): WebMcpTool;
export type McpTool = import("../aiconnect/types.js").McpTool;
export type McpToolResult = import("../aiconnect/types.js").McpToolResult;
/**
 * What `exposeTools` needs of an MCP client; `McpToolSource` is one.
 */
export type McpSource = {
    listMcpTools: () => Promise<McpTool[]>;
    callMcpTool: (name: string, args: Record<string, unknown>) => Promise<McpToolResult>;
};
export type WebMcpAnnotations = {
    /**
     * The tool changes nothing.
     */
    readOnlyHint: boolean;
    /**
     * Its results carry text the site does not vouch for.
     */
    untrustedContentHint: boolean;
};
/**
 * What `document.modelContext.registerTool` takes.
 */
export type WebMcpTool = {
    name: string;
    title?: string | undefined;
    description: string;
    inputSchema: import("../aiconnect/types.js").JsonSchema;
    annotations: WebMcpAnnotations;
    execute: (input: Record<string, unknown> | null | undefined) => Promise<McpToolResult>;
};
