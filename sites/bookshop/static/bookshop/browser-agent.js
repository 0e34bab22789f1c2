// @ts-check
// The bookshop's tools for the agent built into the visitor's browser (WebMCP): where the browser
// offers `document.modelContext`, the page registers the same MCP tools the assistant uses, and
// each call goes to /api/mcp with the visitor's own session, as the assistant's do. In a browser
// without WebMCP nothing happens. The lines between the markers are shown on the page.

import { McpToolSource } from '../aiconnect/index.js';
import { exposeTools } from '../webmcp/index.js';

const status = /** @type {HTMLElement} */ (document.querySelector('#browser-agent'));

// --- how this page works: start
const offered = exposeTools(new McpToolSource('/api/mcp', 'Bookshop for the browser agent'));
// --- how this page works: end

offered.then((names) => {
  if (names.length === 0) return;  // no WebMCP in this browser: the usual case
  status.textContent = `Your browser's own agent can use this shop too: it has the shop's tools (${names.join(', ')}).`;
  status.dataset.tools = String(names.length);
  status.hidden = false;
}, (error) => {
  // The browser has WebMCP, but the tools could not be read or registered: say so, as text.
  status.textContent = `The shop could not offer its tools to your browser's agent: ${error instanceof Error ? error.message : error}`;
  status.dataset.failed = 'true';
  status.hidden = false;
});
