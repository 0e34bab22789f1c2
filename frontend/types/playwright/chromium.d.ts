/**
 * The Chromium to drive: `$CHROMIUM`, else Debian's headless shell for a headless run when it is
 * installed (a fifth of the full browser's CPU per new page; testwallet/chromium.py says more),
 * else Debian's full /usr/bin/chromium.
 *
 * @param {{ headless?: boolean }} [options]
 * @returns {string}
 */
export function chromiumExecutable({ headless }?: {
    headless?: boolean;
}): string;
/**
 * Launch options for Debian's Chromium (chromiumExecutable) with CHROMIUM_ARGS.
 *
 * @param {{ headless?: boolean }} [options]
 * @returns {{ executablePath: string, args: string[] }}
 */
export function launchOptions(options?: {
    headless?: boolean;
}): {
    executablePath: string;
    args: string[];
};
/** Debian's full browser (package `chromium`). */
export const FULL_CHROMIUM: "/usr/bin/chromium";
/** Debian's headless shell (package `chromium-headless-shell`): the same release without a window. */
export const HEADLESS_SHELL: "/usr/bin/chromium-headless-shell";
/** The flags a headless CI machine needs; the CI network is closed, so nothing calls Google's hosts. */
export const CHROMIUM_ARGS: readonly string[];
