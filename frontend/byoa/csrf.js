// @ts-check
/**
 * Django's CSRF token, for a page's own POSTs and the direct link's. A module of its own so that
 * a page that posts to its server loads these few lines, not the whole link flow (./link.js).
 */

/**
 * Return Django's CSRF token: the `csrftoken` cookie, else a `csrfmiddlewaretoken` input, else
 * `<meta name="csrf-token">`; null when there is none (a site that exempts the view).
 *
 * @param {Document} [doc]
 * @returns {string | null}
 */
export function csrfToken(doc = globalThis.document) {
  if (!doc) return null;
  let cookies = '';
  try { cookies = doc.cookie; } catch { /* a sandboxed document has none */ }
  const cookie = cookies.split(';').find((c) => c.trim().startsWith('csrftoken='))?.split('=')[1]?.trim();
  return cookie || /** @type {HTMLInputElement | null} */ (doc.querySelector('input[name="csrfmiddlewaretoken"]'))?.value
    || doc.querySelector('meta[name="csrf-token"]')?.getAttribute('content') || null;
}
