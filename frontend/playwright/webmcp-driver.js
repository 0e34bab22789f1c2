// @ts-check
/**
 * The browser's own agent for Playwright Test and scripts, as testwallet/webmcp/ gives it to pytest:
 * it drives a Chromium launched with WebMCP on (`WEBMCP_FLAG`), opens visitors' pages, lists the
 * tools a page registered with `document.modelContext` and calls them through Playwright's
 * `page.webmcp` (the browser's agent side). A page without WebMCP raises `WebMCPMissing`.
 * Node only: it runs in the test, never in the page.
 */
import { DEFAULT_TIMEOUT_MS, TimeoutError } from './driver.js';

/** The Chromium switch that turns WebMCP on (Chromium 146 and later). */
export const WEBMCP_FLAG = '--enable-features=WebMCP';

/** Raised when the page the agent is given has no WebMCP (`document.modelContext`). */
export class WebMCPMissing extends Error {
  /** @param {string} url */
  constructor(url) {
    super(`The page at ${url} has no WebMCP (document.modelContext): launch Chromium with ${WEBMCP_FLAG} `
      + '(Chromium 146 or later; the browserAgent fixture\'s own browser has it, the test\'s page does not), '
      + 'and serve the page from a secure context (https:// or http://localhost).');
    this.name = 'WebMCPMissing';
  }
}

/**
 * @typedef {object} AgentTool A tool as the browser's agent sees it: what the page registered.
 * @property {string} name
 * @property {string} description
 * @property {Record<string, unknown> | null} inputSchema
 * @property {boolean} readOnly WebMCP's readOnlyHint.
 * @property {boolean} untrustedContent WebMCP's untrustedContentHint.
 */
/**
 * @typedef {object} AgentToolResult What a tool's `execute` resolved with, read as an MCP result.
 * @property {{ type: string, text?: string, [key: string]: unknown }[]} content
 * @property {boolean} isError
 * @property {Record<string, unknown>} [structuredContent]
 * @property {string} text The text parts joined with line breaks, as a model reads them.
 */

// Resolves with the names the page has not registered when the time is up ([] once all are),
// or null without WebMCP; it wakes on the model context's toolchange event.
/** @param {[string[], number]} args */
function missingTools([wanted, timeoutMs]) {
  const context = /** @type {any} */ (document).modelContext;
  if (!context) return null;
  const missing = async () => {
    const names = new Set((await context.getTools()).map((/** @type {{ name: string }} */ tool) => tool.name));
    return wanted.length ? wanted.filter((name) => !names.has(name)) : (names.size ? [] : ['any tool']);
  };
  return new Promise((resolve) => {
    /** @param {string[]} left */
    const finish = (left) => { context.removeEventListener('toolchange', check); clearTimeout(timer); resolve(left); };
    const check = () => missing().then((left) => { if (left.length === 0) finish(left); });
    const timer = setTimeout(() => missing().then(finish), timeoutMs);
    context.addEventListener('toolchange', check);
    check();
  });
}

/**
 * Rethrow Playwright's "not enabled" as WebMCPMissing.
 *
 * @param {import('@playwright/test').Page} page
 * @param {unknown} error
 * @returns {never}
 */
function rethrow(page, error) {
  if (error instanceof Error && error.message.includes('WebMCP is not enabled')) throw new WebMCPMissing(page.url());
  throw error;
}

/** The agent of a Chromium with WebMCP on. */
export class BrowserAgent {
  /** @type {import('@playwright/test').BrowserContext[]} */
  #contexts = [];

  /** @param {import('@playwright/test').Browser} browser A Chromium launched with WEBMCP_FLAG. */
  constructor(browser) {
    this.browser = browser;
  }

  /**
   * Return a page in a new browser context: a new visitor, with cookies of their own.
   *
   * @param {import('@playwright/test').BrowserContextOptions} [options] e.g. `{ baseURL }`.
   */
  async newPage(options) {
    const context = await this.browser.newContext(options);
    this.#contexts.push(context);
    return context.newPage();
  }

  /**
   * Return the tools the page has registered now.
   *
   * @param {import('@playwright/test').Page} page
   * @returns {Promise<AgentTool[]>}
   */
  async tools(page) {
    const listed = await page.webmcp.tools().catch((error) => rethrow(page, error));
    return listed.map(({ name, description = '', inputSchema, annotations }) => ({
      name,
      description,
      inputSchema: /** @type {Record<string, unknown> | null} */ (inputSchema ?? null),
      readOnly: annotations?.readOnly === true,
      untrustedContent: annotations?.untrustedContent === true,
    }));
  }

  /**
   * Wait until the page registered `names` (with none, any tool) and return its tools.
   *
   * @param {import('@playwright/test').Page} page
   * @param {string[]} [names]
   * @param {{ timeout?: number }} [options] milliseconds; a TimeoutError names what did not come.
   * @returns {Promise<AgentTool[]>}
   */
  async waitForTools(page, names = [], { timeout = DEFAULT_TIMEOUT_MS } = {}) {
    const missing = await page.evaluate(missingTools, /** @type {[string[], number]} */ ([names, timeout]));
    if (missing === null) throw new WebMCPMissing(page.url());
    const tools = await this.tools(page);
    if (missing.length > 0) {
      const registered = tools.map((tool) => tool.name).join(', ') || 'nothing';
      throw new TimeoutError(`The page at ${page.url()} did not register ${missing.join(', ')} within ${timeout} ms; it registered: ${registered}.`);
    }
    return tools;
  }

  /**
   * Call a tool the page registered, as the browser's agent does, and return its result.
   *
   * @param {import('@playwright/test').Page} page
   * @param {string} name
   * @param {Record<string, unknown>} [input]
   * @param {{ timeout?: number }} [options] milliseconds.
   * @returns {Promise<AgentToolResult>}
   */
  async callTool(page, name, input = {}, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
    /** @type {any} */
    const value = await page.webmcp.callTool(name, input, { timeout }).catch((error) => rethrow(page, error));
    const content = Array.isArray(value?.content) ? value.content : [];
    /** @type {AgentToolResult} */
    const result = {
      content,
      isError: value?.isError === true,
      text: content.filter((/** @type {any} */ part) => part?.type === 'text').map((/** @type {any} */ part) => part.text).join('\n'),
    };
    const structured = value?.structuredContent;
    if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) result.structuredContent = structured;
    return result;
  }

  /** Close the visitors' contexts this agent opened. */
  async close() {
    for (const context of this.#contexts.splice(0)) await context.close();
  }
}
