// @ts-check
/**
 * Debian's Chromium for Playwright in JavaScript, as testwallet/chromium.py gives it to pytest:
 * `chromium.launch(launchOptions())`, or `use: { launchOptions: launchOptions() }` in a config.
 * Playwright never downloads a browser here.
 */

/** The flags a headless CI machine needs; the CI network is closed, so nothing calls Google's hosts. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
]);

/**
 * Launch options for Debian's Chromium: `$CHROMIUM`, else /usr/bin/chromium, with CHROMIUM_ARGS.
 *
 * @returns {{ executablePath: string, args: string[] }}
 */
export function launchOptions() {
  return { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS] };
}
