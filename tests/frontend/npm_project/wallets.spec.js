// @ts-check
// The test wallet from `npm install visitor-ai`: AI Wallet's stand-in on the bookshop, the BYOA
// extension's on Twenty Questions, each driven by the test.
import { test, expect } from 'visitor-ai/test';

test('the bookshop answers through the AI Wallet stand-in', async ({ page, aiwallet }) => {
  aiwallet.reply('', { toolCalls: [{ name: 'search_books', arguments: { mood: 'calm', limit: 1 } }] });
  aiwallet.reply(['A calm ', 'pick.']);
  await page.goto('/bookshop/');
  await page.getByRole('button', { name: 'Connect your AI' }).click();
  await page.locator('#question').fill('Something calm');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByText('A calm pick.')).toBeVisible();
  await aiwallet.waitUntil((wallet) => wallet.chats.length === 2 && wallet.chats[1].outcome === 'answered');
});

test('a BYOA page gets its answer from the BYOA stand-in', async ({ page, byoaExtension }) => {
  byoaExtension.reply('text.generate', { text: 'Yes.' });
  await page.goto('/twentyq/');
  await page.locator("#ways[data-ready='true'] button[data-way='extension']").waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Change who plays' }).click(); // the ways are folded into the status
  await page.locator("#ways button[data-way='extension']").click();
  await expect(page.locator("#way-status[data-way='extension']")).toBeAttached();
  await page.locator('#new-site-thinks').click();
  await expect(page.locator("#game[data-mode='site-thinks']")).toBeAttached();
  await page.locator('#question').fill('Is it alive?');
  await page.locator('#ask-button').click();
  await expect(page.locator('#history li').first()).toContainText('yes');
  expect(byoaExtension.requests[0].reason).toBe('granted');
  expect(byoaExtension.calls.map((call) => call.skill)).toEqual(['text.generate']);
});
