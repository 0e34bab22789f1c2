// @ts-check
/** The page's MCP tools for the browser's own agent (WebMCP), re-exported. */

export { exposeTools, findModelContext } from './expose.js';
export { webMcpTool } from './tool.js';
