// @ts-check
// The Playwright Test example of docs/howto/ci.md ("Test your site in CI"): the test wallet's fixtures
// (playwright/fixtures.js) against the bookshop page, served by playwright.config.js's webServer.
import { test, expect } from '../playwright/fixtures.js';

test('my page sees both wallets', async ({ page, aiwallet, byoaExtension }) => {
  await page.goto('/');                   // both stubs were installed before the page's scripts
  await expect(page.locator('html[data-wallets-checked=true]')).toBeAttached();
  await expect(page.locator('[data-wallet="aiwallet"] .status')).toHaveText('found');
  await expect(page.locator('[data-wallet="byoa"] .status')).toHaveText('found');
});

test('my page answers through the visitor\'s AI', async ({ page, aiwallet }) => {
  aiwallet.reply('', { toolCalls: [{ name: 'search_books', arguments: { mood: 'calm', limit: 1 } }] });
  aiwallet.reply(['A calm ', 'pick.']);   // the scripted model: a tool call, then streamed text
  await page.goto('/bookshop/');
  await page.getByRole('button', { name: 'Connect your AI' }).click();  // the visitor approves
  await page.locator('#question').fill('Something calm');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByText('A calm pick.')).toBeVisible();
  await aiwallet.waitUntil((wallet) => wallet.chats.length === 2 && wallet.chats[1].outcome === 'answered');
  expect(aiwallet.requests[0].method).toBe('status');
  expect(aiwallet.chats[1].messages.slice(-2).map((m) => m.role)).toEqual(['assistant', 'tool']);
});

test('my page falls back when the visitor declines', async ({ page, aiwallet }) => {
  aiwallet.consent = 'decline';
  await page.goto('/bookshop/');
  await page.getByRole('button', { name: 'Connect your AI' }).click();
  await expect(page.locator('ai-connect-widget[data-state="error"]')).toBeAttached();
  await expect(page.locator('form.search')).toBeVisible();  // own mode still works
});

test('my page says when the visitor\'s plan is spent', async ({ page, aiwallet }) => {
  aiwallet.fail(429, 'Your plan is spent');  // the provider refuses: the page gets 429
  await page.goto('/bookshop/');
  await page.getByRole('button', { name: 'Connect your AI' }).click();
  await page.locator('#question').fill('Anything');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.locator('#assistant-error[data-status="429"]')).toContainText('Your plan is spent');
});
