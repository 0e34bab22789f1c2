// @ts-check
/**
 * A fake document for node tests of what reads the page's cookie and a few elements (the CSRF
 * token): `cookie`, and the elements `querySelector` finds by selector.
 *
 * @param {{ cookie?: string | (() => string), elements?: Record<string, object> }} [page]
 */
export function fakeDocument({ cookie = '', elements = {} } = {}) {
  return /** @type {Document} */ (/** @type {unknown} */ ({
    get cookie() { return typeof cookie === 'function' ? cookie() : cookie; },
    querySelector: (/** @type {string} */ selector) => elements[selector] ?? null,
  }));
}
