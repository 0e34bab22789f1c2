// @ts-check
/**
 * Find the visitor's wallet (specs/wallet-provider.md, "How the SDK finds the wallet").
 *
 * A wallet defines `window.aiwallet` before the page's scripts run; a script that runs later, or
 * a wallet that injects late, is met through the `aiwallet:announce` event instead. Waiting is
 * bounded: no answer within 300 ms means no wallet is installed.
 */

/** @typedef {import('./types.js').WalletProvider} WalletProvider */

/** How long the page waits for an `aiwallet:announce` before it concludes there is no wallet. */
export const DISCOVERY_TIMEOUT_MS = 300;

/**
 * Return the wallet of `win`, or `null` when none announces itself within 300 ms.
 *
 * @param {Window & { aiwallet?: unknown }} win The page's window (a test may pass its own).
 * @returns {Promise<WalletProvider | null>}
 */
export function findWallet(win) {
  if (isWallet(win.aiwallet)) return Promise.resolve(win.aiwallet);
  return new Promise((resolve) => {
    /** @param {WalletProvider | null} wallet */
    const finish = (wallet) => {
      clearTimeout(timer);
      win.removeEventListener('aiwallet:announce', onAnnounce);
      resolve(wallet);
    };
    /** @param {Event} event */
    const onAnnounce = (event) => {
      const detail = /** @type {CustomEvent} */ (event).detail;
      // The same isAIWallet check as for window.aiwallet: an announce whose detail is not a
      // wallet is not taken as the answer, and the wait goes on.
      if (isWallet(detail)) finish(detail);
    };
    win.addEventListener('aiwallet:announce', onAnnounce);
    const timer = setTimeout(finish, DISCOVERY_TIMEOUT_MS, null);
    win.dispatchEvent(new Event('aiwallet:request'));
  });
}

/**
 * @param {unknown} candidate
 * @returns {candidate is WalletProvider}
 */
function isWallet(candidate) {
  return typeof candidate === 'object' && candidate !== null
    && /** @type {{ isAIWallet?: unknown }} */ (candidate).isAIWallet === true;
}
