export { webMcpTool } from "./tool.js";
export { exposeTools, findModelContext } from "./expose.js";
