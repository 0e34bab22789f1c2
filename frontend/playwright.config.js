// @ts-check
/**
 * Playwright Test for the test wallet's JavaScript fixtures (testwallet/fixtures.js), run by
 * `make test` (`npm run e2e`): the project served by daphne from the repository's virtualenv on a
 * free port, with its own SQLite database, and Debian's Chromium (never a downloaded browser).
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = process.env.PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

/** A free loopback port, picked once: the workers load this file again and inherit the environment. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}
process.env.TESTWALLET_E2E_PORT ??= String(await freePort());
process.env.TESTWALLET_E2E_DIR ??= mkdtempSync(join(tmpdir(), 'testwallet-e2e-'));
const PORT = process.env.TESTWALLET_E2E_PORT;
const DATA = process.env.TESTWALLET_E2E_DIR;

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  forbidOnly: true,
  reporter: [['list']],
  outputDir: join(ROOT, 'test-artifacts', 'playwright-test'),
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      // The flags of testwallet/chromium.py: a headless CI machine with a closed network.
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `"${PYTHON}" manage.py migrate --noinput -v 0 && "${PYTHON}" manage.py load_catalog`
      + ` && exec "${PYTHON}" -m daphne -b 127.0.0.1 -p ${PORT} sites.config.asgi:application`,
    cwd: ROOT,
    url: `http://127.0.0.1:${PORT}/`,
    env: {
      DJANGO_SETTINGS_MODULE: 'sites.config.settings',
      DATABASE_URL: `sqlite:///${join(DATA, 'db.sqlite3')}`,
      VISITOR_AI_VAR_DIR: DATA,
    },
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
