// @ts-check
// A Node project of a site's own, outside the repository: Playwright Test with the packed
// visitor-ai package's test wallet, against the site that SITE_URL names, in Debian's Chromium.
import { defineConfig } from '@playwright/test';
import { launchOptions } from 'visitor-ai/test/chromium';

export default defineConfig({
  testDir: '.',
  workers: 1,
  forbidOnly: true,
  reporter: [['list']],
  // A shared CI machine may be slow: waits are bounded, never sleeps.
  expect: { timeout: 20_000 },
  use: { baseURL: process.env.SITE_URL, browserName: 'chromium', launchOptions: launchOptions() },
});
