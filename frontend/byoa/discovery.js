// @ts-check
/** Find `window.byoa`, the BYOA extension's provider (specs/byoa-sites.md, "window.byoa"). */

/**
 * Resolve with `window.byoa`, or the one a `byoa:ready` event brings within `wait` ms, else null
 * (no extension, or no `window` as in node): then the page goes its own way.
 *
 * @param {{ wait?: number }} [options]
 * @returns {Promise<import('./types.js').ByoaProvider | null>}
 */
export function findByoa({ wait = 300 } = {}) {
  if (typeof window === 'undefined') return Promise.resolve(null);
  const found = () => {
    const p = /** @type {any} */ (window).byoa;
    return typeof p?.request === 'function' && typeof p.call === 'function' ? p : null;
  };
  return new Promise((resolve) => {
    if (found() || !(wait > 0)) return resolve(found());
    const onReady = () => found() && finish();
    const finish = () => {
      clearTimeout(timer);
      window.removeEventListener('byoa:ready', onReady);
      resolve(found());
    };
    const timer = setTimeout(finish, wait);
    window.addEventListener('byoa:ready', onReady);
  });
}
