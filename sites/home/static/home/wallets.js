// @ts-check
// Show which wallets this browser has. Both are looked for the way their specs
// say: AI Wallet by `window.aiwallet.isAIWallet` or the first `aiwallet:announce`
// answering our `aiwallet:request` within 300 ms (wallet-provider.md,
// "Discovery"); an agent wallet by `window.byoa` or its `byoa:ready` event.
// Wallet names come from the wallet and are shown with textContent only.

const DISCOVERY_MS = 300;

/** @param {string} wallet @param {string} text @param {boolean} found */
function show(wallet, text, found) {
  const item = document.querySelector(`[data-wallet="${wallet}"]`);
  const status = item?.querySelector('.status');
  if (!item || !status) return;
  status.textContent = text;
  item.classList.toggle('found', found);
  item.classList.toggle('missing', !found);
}

/** @returns {Promise<boolean>} */
function findAiWallet() {
  // @ts-ignore — the wallet defines it; not part of the DOM's types.
  if (window.aiwallet?.isAIWallet === true) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), DISCOVERY_MS);
    /** @param {Event} event */
    const onAnnounce = (event) => {
      // @ts-ignore — CustomEvent detail is the provider.
      if (event.detail?.isAIWallet === true) done(true);
    };
    /** @param {boolean} found */
    function done(found) {
      clearTimeout(timer);
      window.removeEventListener('aiwallet:announce', onAnnounce);
      resolve(found);
    }
    window.addEventListener('aiwallet:announce', onAnnounce);
    window.dispatchEvent(new Event('aiwallet:request'));
  });
}

/** @returns {Promise<boolean>} */
function findByoa() {
  if ('byoa' in window) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), DISCOVERY_MS);
    const onReady = () => done(true);
    /** @param {boolean} found */
    function done(found) {
      clearTimeout(timer);
      window.removeEventListener('byoa:ready', onReady);
      resolve(found);
    }
    window.addEventListener('byoa:ready', onReady);
  });
}

const checks = [
  findAiWallet().then((found) => show('aiwallet', found ? 'found' : 'not installed', found)),
  findByoa().then((found) => show('byoa', found ? 'found' : 'not installed', found)),
];
// Lets a test (or a curious visitor) know the page has finished looking.
Promise.all(checks).then(() => {
  document.documentElement.dataset.walletsChecked = 'true';
});
