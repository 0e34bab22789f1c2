// @ts-check
/**
 * Debian's Chromium for Playwright in JavaScript, as testwallet/chromium.py gives it to pytest:
 * `chromium.launch(launchOptions())`, or `use: { launchOptions: launchOptions() }` in a config.
 * Playwright never downloads a browser here.
 */
import { existsSync } from 'node:fs';

/** Debian's full browser (package `chromium`). */
export const FULL_CHROMIUM = '/usr/bin/chromium';
/** Debian's headless shell (package `chromium-headless-shell`): the same release without a window. */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** The flags a headless CI machine needs; the CI network is closed, so nothing calls Google's hosts. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
  // One renderer process for a context's pages: less renderer CPU for each new context's first
  // page (benchmarks/browser_pages.py).
  '--renderer-process-limit=1',
]);

/**
 * The Chromium to drive: `$CHROMIUM`, else Debian's headless shell for a headless run when it is
 * installed (a fifth of the full browser's CPU per new page; testwallet/chromium.py says more),
 * else Debian's full /usr/bin/chromium.
 *
 * @param {{ headless?: boolean }} [options]
 * @returns {string}
 */
export function chromiumExecutable({ headless = true } = {}) {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  return headless && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}

/**
 * Launch options for Debian's Chromium (chromiumExecutable) with CHROMIUM_ARGS.
 *
 * @param {{ headless?: boolean }} [options]
 * @returns {{ executablePath: string, args: string[] }}
 */
export function launchOptions(options = {}) {
  return { executablePath: chromiumExecutable(options), args: [...CHROMIUM_ARGS] };
}
