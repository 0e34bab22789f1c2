/** The site's tools, read from its MCP server over Streamable HTTP. Implements `ToolSource`. */
export class McpToolSource {
    /**
     * @param {string | URL} url The server's address; a relative one resolves against the page's.
     * @param {string} [clientName] The client name the server sees when the client initializes.
     */
    constructor(url: string | URL, clientName?: string);
    /**
     * Return the server's tools, read once and kept. A failed attempt is forgotten.
     *
     * @returns {Promise<ToolDefinition[]>}
     */
    listTools(): Promise<ToolDefinition[]>;
    /**
     * Return the server's tools as MCP lists them, with their `title` and `annotations` (what a
     * browser agent is told, frontend/webmcp/); read once with `listTools`'s list and kept.
     *
     * @returns {Promise<McpTool[]>}
     */
    listMcpTools(): Promise<McpTool[]>;
    /**
     * Call a tool; return what the model reads: its text parts joined with line breaks, prefixed
     * with `Tool error: ` when the result is marked `isError`.
     *
     * @param {string} name
     * @param {Record<string, unknown>} args
     * @returns {Promise<string>}
     */
    callTool(name: string, args: Record<string, unknown>): Promise<string>;
    /**
     * Call a tool; return its whole result for the page: the text, whether it failed (`isError`)
     * and its structured content. It rejects where `callTool` does (a refused request, a failed
     * POST); a tool that failed on the server resolves with `isError: true`.
     *
     * @param {string} name
     * @param {Record<string, unknown>} args
     * @returns {Promise<ToolResult>}
     */
    callToolResult(name: string, args: Record<string, unknown>): Promise<ToolResult>;
    /**
     * Call a tool; return its result as MCP gives it: every content part (images too), `isError`,
     * and `structuredContent` when it is a JSON object. It rejects where `callTool` does.
     *
     * @param {string} name
     * @param {Record<string, unknown>} args
     * @returns {Promise<McpToolResult>}
     */
    callMcpTool(name: string, args: Record<string, unknown>): Promise<McpToolResult>;
    #private;
}
export type ToolDefinition = import("./types.js").ToolDefinition;
export type ToolResult = import("./types.js").ToolResult;
export type McpTool = import("./types.js").McpTool;
export type McpToolResult = import("./types.js").McpToolResult;
