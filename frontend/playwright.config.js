// @ts-check
/**
 * Playwright Test for the test wallet's JavaScript fixtures (playwright/fixtures.js), run by
 * `make test` (`npm run e2e`): the project served as the pytest fixture serves it (`python -m
 * testwallet.serve`, from the repository's virtualenv: its own SQLite database, a free port it
 * prints), and Debian's Chromium, never a downloaded browser.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { launchOptions } from './playwright/chromium.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = process.env.PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  forbidOnly: true,
  reporter: [['list']],
  outputDir: join(ROOT, 'test-artifacts', 'playwright-test'),
  use: {
    // Read from the server's "Serving <url>" line (webServer.wait below) in the workers, which start after it.
    baseURL: process.env.TESTWALLET_URL,
    browserName: 'chromium',
    launchOptions: launchOptions(),
  },
  // A fresh server's first tool call loads the MCP SDK, and CI's cores are shared with other suites:
  // Playwright's 5 s default for an expectation ran out there.
  expect: { timeout: 20_000 },
  webServer: {
    command: `"${PYTHON}" -m testwallet.serve --setup "migrate --noinput" --setup load_catalog sites.config.asgi:application`,
    cwd: ROOT,
    env: { DJANGO_SETTINGS_MODULE: 'sites.config.settings' },
    wait: { stdout: /^Serving (?<testwallet_url>http:\/\/\S+)$/m },
    timeout: 60_000,
    // SIGTERM, so that the server stops daphne and removes its database (the default is SIGKILL).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
