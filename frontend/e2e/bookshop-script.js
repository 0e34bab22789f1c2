// @ts-check
// The test wallet from a plain Playwright script in JavaScript, no test runner (docs/howto/ci.md); `npm
// run e2e` runs it. It serves the project with `python -m testwallet.serve`, then
// checks the bookshop: connect, a tool call, a streamed answer, a 429 and a decline. It exits
// non-zero, saying what went wrong, when a check fails.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, expect as baseExpect } from '@playwright/test';
import { AiWallet } from '../playwright/aiwallet-driver.js';
import { launchOptions } from '../playwright/chromium.js';

// A fresh server's first tool call loads the MCP SDK, and CI's cores are shared: 20 s, not 5.
const expect = baseExpect.configure({ timeout: 20_000 });
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = process.env.PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

/**
 * Start the project's server and resolve with the URL it prints (at most 60 s).
 *
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function serve() {
  const server = spawn(
    PYTHON,
    ['-m', 'testwallet.serve', '--setup', 'migrate --noinput', '--setup', 'load_catalog', 'sites.config.asgi:application'],
    { cwd: ROOT, env: { ...process.env, DJANGO_SETTINGS_MODULE: 'sites.config.settings' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const stop = async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGTERM');
    await once(server, 'exit');
  };
  const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (server.stdout) });
  const timer = setTimeout(() => void stop(), 60_000);
  for await (const line of lines) {
    const serving = /^Serving (http:\/\/\S+)$/.exec(line);
    if (serving) {
      clearTimeout(timer);
      return { url: serving[1], stop };
    }
  }
  clearTimeout(timer);
  throw new Error('python -m testwallet.serve ended without serving (its errors are above)');
}

const server = await serve();
const browser = await chromium.launch(launchOptions());
try {
  const page = await browser.newPage();
  const wallet = new AiWallet();
  await wallet.install(page); // before the page loads
  wallet.reply('', { toolCalls: [{ name: 'search_books', arguments: { mood: 'calm', limit: 1 } }] });
  wallet.reply(['A calm ', 'pick.']);
  wallet.fail(429, 'Your plan is spent');
  await page.goto(`${server.url}/bookshop/`);
  await page.getByRole('button', { name: 'Connect your AI' }).click();
  await page.locator('#question').fill('Something calm');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByText('A calm pick.')).toBeVisible();
  await page.locator('#question').fill('And another?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.locator('#assistant-error[data-status="429"]')).toContainText('Your plan is spent');
  expect(wallet.chats[1].messages.slice(-2).map((m) => m.role)).toEqual(['assistant', 'tool']);
  await wallet.close();
  wallet.check();

  const declining = await browser.newPage();
  const declined = new AiWallet();
  await declined.install(declining);
  declined.consent = 'decline';
  await declining.goto(`${server.url}/bookshop/`);
  await declining.getByRole('button', { name: 'Connect your AI' }).click();
  await expect(declining.locator('ai-connect-widget[data-state="error"]')).toContainText('declined');
  await declined.close();
  declined.check();
  console.log('bookshop-script: connect, tool call, streamed answer, 429 and decline all behaved.');
} finally {
  await browser.close();
  await server.stop();
}
