/** The Chromium switch that turns WebMCP on (Chromium 146 and later). */
export const WEBMCP_FLAG: "--enable-features=WebMCP";
/** Raised when the page the agent is given has no WebMCP (`document.modelContext`). */
export class WebMCPMissing extends Error {
    /** @param {string} url */
    constructor(url: string);
}
/** The agent of a Chromium with WebMCP on. */
export class BrowserAgent {
    /** @param {import('@playwright/test').Browser} browser A Chromium launched with WEBMCP_FLAG. */
    constructor(browser: import("@playwright/test").Browser);
    browser: import("@playwright/test").Browser;
    /**
     * Return a page in a new browser context: a new visitor, with cookies of their own.
     *
     * @param {import('@playwright/test').BrowserContextOptions} [options] e.g. `{ baseURL }`.
     */
    newPage(options?: import("@playwright/test").BrowserContextOptions): Promise<import("@playwright/test").Page>;
    /**
     * Return the tools the page has registered now.
     *
     * @param {import('@playwright/test').Page} page
     * @returns {Promise<AgentTool[]>}
     */
    tools(page: import("@playwright/test").Page): Promise<AgentTool[]>;
    /**
     * Wait until the page registered `names` (with none, any tool) and return its tools.
     *
     * @param {import('@playwright/test').Page} page
     * @param {string[]} [names]
     * @param {{ timeout?: number }} [options] milliseconds; a TimeoutError names what did not come.
     * @returns {Promise<AgentTool[]>}
     */
    waitForTools(page: import("@playwright/test").Page, names?: string[], { timeout }?: {
        timeout?: number;
    }): Promise<AgentTool[]>;
    /**
     * Call a tool the page registered, as the browser's agent does, and return its result.
     *
     * @param {import('@playwright/test').Page} page
     * @param {string} name
     * @param {Record<string, unknown>} [input]
     * @param {{ timeout?: number }} [options] milliseconds.
     * @returns {Promise<AgentToolResult>}
     */
    callTool(page: import("@playwright/test").Page, name: string, input?: Record<string, unknown>, { timeout }?: {
        timeout?: number;
    }): Promise<AgentToolResult>;
    /** Close the visitors' contexts this agent opened. */
    close(): Promise<void>;
    #private;
}
/**
 * A tool as the browser's agent sees it: what the page registered.
 */
export type AgentTool = {
    name: string;
    description: string;
    inputSchema: Record<string, unknown> | null;
    /**
     * WebMCP's readOnlyHint.
     */
    readOnly: boolean;
    /**
     * WebMCP's untrustedContentHint.
     */
    untrustedContent: boolean;
};
/**
 * What a tool's `execute` resolved with, read as an MCP result.
 */
export type AgentToolResult = {
    content: {
        type: string;
        text?: string;
        [key: string]: unknown;
    }[];
    isError: boolean;
    structuredContent?: Record<string, unknown> | undefined;
    /**
     * The text parts joined with line breaks, as a model reads them.
     */
    text: string;
};
