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
export function csrfToken(doc?: Document): string | null;
