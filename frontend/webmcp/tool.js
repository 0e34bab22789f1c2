// @ts-check
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
export function webMcpTool(tool, source) {
  const { name, title = tool.annotations?.title, description = '', inputSchema, annotations } = tool;
  return {
    name,
    ...(title ? { title } : {}),
    description,
    inputSchema,
    annotations: {
      readOnlyHint: annotations?.readOnlyHint === true,
      // MCP's openWorldHint defaults to true: a tool that does not say its world is closed may
      // bring back anyone's text, so the agent is told to treat it as untrusted.
      untrustedContentHint: annotations?.openWorldHint !== false,
    },
    execute: (input) => callTool(source, name, input ?? {}),
  };
}

/**
 * Call the tool and resolve with its MCP result. A failed call resolves too, marked `isError`:
 * a rejected `execute` reaches the agent as a bare error with no text to act on.
 *
 * @param {McpSource} source
 * @param {string} name
 * @param {Record<string, unknown>} input
 * @returns {Promise<McpToolResult>}
 */
async function callTool(source, name, input) {
  try {
    return await source.callMcpTool(name, input);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { content: [{ type: 'text', text: `The tool ${name} could not be called: ${reason}` }], isError: true };
  }
}
