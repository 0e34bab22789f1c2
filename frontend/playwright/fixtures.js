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
 *
 * Recorded answers: with `test.use({ testwalletCassette: { file: 'answers.json' } })`, `aiwallet`
 * answers every chat the test does not script from a model through that cassette. Once per worker
 * the fixtures start `python -m testwallet.cassette serve <file> --record <record>`, the one reader
 * and writer of cassettes (testwallet/cassette/), and point the wallet at it. `record` is
 * 'none' (replay only: no model server is asked), 'new' or 'all', default TESTWALLET_RECORD or
 * 'none'; the record modes ask TESTWALLET_MODEL_URL. `file` is read from the config file's
 * folder; `python` is the Python with the testwallet package (default TESTWALLET_PYTHON, else
 * python3). A chat never recorded reaches the page as the wallet's 409, is attached to the
 * test's report, and fails the test.
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { AiWallet } from './aiwallet-driver.js';
import { ByoaExtension } from './byoa-driver.js';
import { launchOptions } from './chromium.js';
import { BrowserAgent, WEBMCP_FLAG } from './webmcp-driver.js';

/**
 * @typedef {{ file: string, record?: 'none' | 'new' | 'all', python?: string }} CassetteOption
 *   The cassette the `aiwallet` fixture answers from (`testwalletCassette`).
 * @typedef {{ aiwallet: AiWallet, byoaExtension: ByoaExtension, browserAgent: BrowserAgent }} WalletFixtures
 * @typedef {{ webmcpBrowser: import('@playwright/test').Browser,
 *   testwalletCassette: CassetteOption | undefined,
 *   testwalletModel: { url: string, file: string } | null }} WalletWorkerFixtures
 * @typedef {import('@playwright/test').PlaywrightTestArgs & import('@playwright/test').PlaywrightTestOptions} TestArgs
 * @typedef {import('@playwright/test').PlaywrightWorkerArgs & import('@playwright/test').PlaywrightWorkerOptions} WorkerArgs
 */

/** Playwright's `test` with the wallet fixtures. */
export const test = base.extend(/** @type {import('@playwright/test').Fixtures<WalletFixtures, WalletWorkerFixtures, TestArgs, WorkerArgs>} */ ({
  // The option, none by default; worker-scoped, as the server it starts.
  testwalletCassette: [undefined, { scope: 'worker', option: true }],
  testwalletModel: [async ({ testwalletCassette }, use, workerInfo) => {
    if (!testwalletCassette) return use(null);
    const folder = workerInfo.config.configFile ? dirname(workerInfo.config.configFile) : process.cwd();
    const server = await serveCassette(resolve(folder, testwalletCassette.file), testwalletCassette);
    await use({ url: server.url, file: server.file });
    await server.stop();
  }, { scope: 'worker' }],
  aiwallet: async ({ page, testwalletModel }, use, testInfo) => {
    const wallet = new AiWallet();
    if (testwalletModel) {
      wallet.answerFrom(testwalletModel.url);
      wallet.onMiss = (message) => testInfo.attach('testwallet: not recorded', { body: message, contentType: 'text/plain' });
    }
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

/** How long the cassette's server may take to say where it serves, in milliseconds. */
const SERVE_BOUND_MS = 30_000;

/**
 * Start `python -m testwallet.cassette serve` on `file`; resolve when it prints where it serves.
 *
 * @param {string} file
 * @param {CassetteOption} option
 * @returns {Promise<{ url: string, file: string, stop: () => Promise<void> }>}
 */
async function serveCassette(file, option) {
  const record = option.record ?? process.env.TESTWALLET_RECORD ?? 'none';
  if (!['none', 'new', 'all'].includes(record)) {
    throw new RangeError(`testwalletCassette.record is none, new or all; got ${JSON.stringify(record)}`);
  }
  const python = option.python ?? process.env.TESTWALLET_PYTHON ?? 'python3';
  const child = spawn(python, ['-m', 'testwallet.cassette', 'serve', file, '--record', record], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    stderr += text;
    process.stderr.write(text); // a miss is logged there too, into the run's output
  });
  const exited = new Promise((done) => child.once('close', done));
  const url = await new Promise((found, failed) => {
    let stdout = '';
    const timer = setTimeout(() => failed(new Error(`${python} -m testwallet.cassette serve said nothing within ${SERVE_BOUND_MS} ms`)), SERVE_BOUND_MS);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      stdout += text;
      const serving = /^Serving (http:\/\/\S+)$/m.exec(stdout);
      if (serving) {
        clearTimeout(timer);
        found(serving[1]);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      failed(new Error(`${python} could not be started (${error.message}): name the Python with testwallet in testwalletCassette.python`));
    });
    exited.then(() => {
      clearTimeout(timer);
      failed(new Error(`The cassette's server stopped: ${stderr.trim() || 'it said nothing'}`));
    });
  });
  return {
    url,
    file,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export { expect };
export { AiWallet, NotRecorded } from './aiwallet-driver.js';
export { ByoaExtension, FAILED } from './byoa-driver.js';
export { Consents, moreAsked } from './consents.js';
export { CONSENTS, ScriptError, TimeoutError } from './driver.js';
export { BrowserAgent, WEBMCP_FLAG, WebMCPMissing } from './webmcp-driver.js';
// The in-page scripts, for a test that installs a stand-in by hand (addInitScript) or serves it.
export { SCRIPT_PATH as AIWALLET_SCRIPT_PATH } from './aiwallet-driver.js';
export { SCRIPT_PATHS as BYOA_SCRIPT_PATHS, SKILLS } from './byoa-driver.js';
