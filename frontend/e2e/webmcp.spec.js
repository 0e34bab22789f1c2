// @ts-check
// The browser-agent example of docs/howto/ci.md ("Test your site in CI"): the agent built into the
// visitor's browser (WebMCP) lists and calls the bookshop's tools, in a Chromium of its own with
// --enable-features=WebMCP (playwright/webmcp-driver.js); the test's own page has no WebMCP.
import { test, expect, WebMCPMissing } from '../playwright/fixtures.js';

test('the browser\'s own agent finds a book and fills the basket', async ({ browserAgent, baseURL }) => {
  const page = await browserAgent.newPage({ baseURL });  // a new visitor
  await page.goto('/bookshop/');
  await browserAgent.waitForTools(page, ['search_books', 'add_to_basket']);
  const found = await browserAgent.callTool(page, 'search_books', { mood: 'calm', limit: 1 });
  const [book] = /** @type {{ slug: string, title: string }[]} */ (found.structuredContent?.books);
  expect((await browserAgent.callTool(page, 'add_to_basket', { slug: book.slug })).isError).toBe(false);
  await page.goto('/bookshop/basket/');
  await expect(page.locator('main')).toContainText(book.title);
});

test('a tool error reaches the agent as a result it can read', async ({ browserAgent, baseURL }) => {
  const page = await browserAgent.newPage({ baseURL });
  await page.goto('/bookshop/');
  await browserAgent.waitForTools(page, ['search_books']);
  const result = await browserAgent.callTool(page, 'search_books', { mood: 'grumpy' });
  expect(result.isError).toBe(true);
  expect(result.text).toContain('Use one of:');
});

test('most visitors\' browsers have no WebMCP, and the agent says so', async ({ page, browserAgent }) => {
  await page.goto('/bookshop/');
  await expect(browserAgent.tools(page)).rejects.toThrow(WebMCPMissing);
});
