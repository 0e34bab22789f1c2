// @ts-check
/**
 * Playwright Test fixtures of the test wallet: `aiwallet` (AI Wallet's `window.aiwallet`) and
 * `byoaExtension` (the BYOA extension's `window.byoa`), each installed into the test's `page`
 * before it loads anything, and checked when the test ends (a ScriptError of the script fails it);
 * `browserAgent`, the browser's own agent (WebMCP) in a Chromium of its own (webmcp-driver.js).
 *
 *     import { test, expect } from '<this repository>/frontend/playwright/fixtures.js';
 *
 *     test('my page answers', async ({ page, aiwallet }) => {
 *       aiwallet.reply(['A calm ', 'pick.']);
 *       await page.goto('/bookshop/');
 *       ...
 *     });
 */
import { test as base, expect } from '@playwright/test';
import { AiWallet } from './aiwallet-driver.js';
import { ByoaExtension } from './byoa-driver.js';
import { launchOptions } from './chromium.js';
import { BrowserAgent, WEBMCP_FLAG } from './webmcp-driver.js';

/**
 * @typedef {{ aiwallet: AiWallet, byoaExtension: ByoaExtension, browserAgent: BrowserAgent }} WalletFixtures
 * @typedef {{ webmcpBrowser: import('@playwright/test').Browser }} WalletWorkerFixtures
 * @typedef {import('@playwright/test').PlaywrightTestArgs & import('@playwright/test').PlaywrightTestOptions} TestArgs
 * @typedef {import('@playwright/test').PlaywrightWorkerArgs & import('@playwright/test').PlaywrightWorkerOptions} WorkerArgs
 */

/** Playwright's `test` with the wallet fixtures. */
export const test = base.extend(/** @type {import('@playwright/test').Fixtures<WalletFixtures, WalletWorkerFixtures, TestArgs, WorkerArgs>} */ ({
  aiwallet: async ({ page }, use) => {
    const wallet = new AiWallet();
    await wallet.install(page);
    await use(wallet);
    await wallet.close();
    wallet.check();
  },
  byoaExtension: async ({ page }, use) => {
    const extension = new ByoaExtension();
    await extension.install(page);
    await use(extension);
    extension.check();
  },
  // The browser's own agent drives a Chromium of its own with WebMCP on; the test's page stays without it.
  webmcpBrowser: [async ({ playwright }, use) => {
    const options = launchOptions();
    const browser = await playwright.chromium.launch({ ...options, args: [...options.args, WEBMCP_FLAG] });
    await use(browser);
    await browser.close();
  }, { scope: 'worker' }],
  browserAgent: async ({ webmcpBrowser }, use) => {
    const agent = new BrowserAgent(webmcpBrowser);
    await use(agent);
    await agent.close();
  },
}));

export { expect };
export { AiWallet } from './aiwallet-driver.js';
export { ByoaExtension, FAILED } from './byoa-driver.js';
export { CONSENTS, ScriptError, TimeoutError } from './driver.js';
export { BrowserAgent, WEBMCP_FLAG, WebMCPMissing } from './webmcp-driver.js';
// The in-page scripts, for a test that installs a stand-in by hand (addInitScript) or serves it.
export { SCRIPT_PATH as AIWALLET_SCRIPT_PATH } from './aiwallet-driver.js';
export { SCRIPT_PATHS as BYOA_SCRIPT_PATHS, SKILLS } from './byoa-driver.js';
