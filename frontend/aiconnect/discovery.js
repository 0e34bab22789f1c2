// @ts-check
/**
 * Find the visitor's wallet (specs/wallet-provider.md, "How the SDK finds the wallet"):
 * `window.aiwallet`, or the first `aiwallet:announce` within 300 ms of asking for one.
 */

/** @typedef {import('./types.js').WalletProvider} WalletProvider */

/** How long to wait for an `aiwallet:announce` before concluding there is no wallet. */
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
      // The isAIWallet check of window.aiwallet applies to an announce's detail too.
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
