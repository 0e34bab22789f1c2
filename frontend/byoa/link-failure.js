// @ts-check
/**
 * Why a direct link did not connect, for the developer: the visitor only learns that it did not
 * (a decline looks like no wallet), but a page whose `POST /byoa/code` is refused can never
 * connect, and its developer needs to know why. The reasons of the code request each come with
 * a console message that says what to fix; the visitor's own outcomes (no wallet came, the page
 * gave up) are not logged. No message ever carries the link or its code.
 */

/** @typedef {import('./types.js').LinkFailure} LinkFailure */

/** What to fix for each reason the code request can fail, in the console's words. */
const ADVICE = /** @type {const} */ ({
  csrf: "Django's CSRF check refused POST /byoa/code (403). A page with no form has no csrftoken "
    + 'cookie: decorate its view with @ensure_csrf_cookie (django.views.decorators.csrf), or put '
    + '{% csrf_token %} in its template.',
  'rate-limited': 'POST /byoa/code answered 429: this browser or address asked for too many codes '
    + '(BYOA["CODES_PER_SESSION"], BYOA["CODES_PER_ADDRESS"]).',
  'endpoint-refused': 'POST /byoa/code answered 500 endpoint-refused: no wallet would accept a link '
    + 'to this server.',
  'unknown-manifest': 'POST /byoa/code answered 404 unknown-manifest: name a manifest the server has '
    + "(startLink's manifest option is an app label, that app's manifest.json).",
  'server-error': 'POST /byoa/code failed; the server log says why.',
  network: 'POST /byoa/code did not reach the server.',
  'bad-answer': 'POST /byoa/code answered something that is not {session, link} with a '
    + 'bringyourownagent:// link.',
});

/**
 * Return why the code request failed, from its response (`null`: it never got one).
 *
 * @param {Response | null} response
 * @param {unknown} body the response's JSON, or null
 * @returns {LinkFailure}
 */
export function codeFailure(response, body) {
  if (!response) return failure('network');
  const { status } = response;
  const said = typeof body === 'object' && body !== null ? /** @type {Record<string, unknown>} */ (body) : {};
  const message = typeof said.message === 'string' ? said.message.slice(0, 500) : '';
  if (status === 403) return failure('csrf', status);
  if (status === 429) {
    const retryAfter = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
    return { ...failure('rate-limited', status, message), ...(retryAfter >= 0 && { retryAfter }) };
  }
  if (said.error === 'endpoint-refused') return failure('endpoint-refused', status, message);
  if (said.error === 'unknown-manifest') return failure('unknown-manifest', status, message);
  return failure(response.ok ? 'bad-answer' : 'server-error', status);
}

/**
 * Tell the developer, in the console, why the code request failed; the visitor's page shows
 * only that the wallet did not connect.
 *
 * @param {LinkFailure} failed
 */
export function logFailure(failed) {
  if (!(failed.reason in ADVICE)) return; // the visitor's own outcome: nothing to fix
  console.warn(`startLink: ${failed.message}`);
}

/**
 * @param {LinkFailure['reason']} reason
 * @param {number} [status]
 * @param {string} [said] what the server said (its own words, never the link)
 * @returns {LinkFailure}
 */
export function failure(reason, status, said = '') {
  const advice = reason in ADVICE ? ADVICE[/** @type {keyof typeof ADVICE} */ (reason)] : '';
  const message = [advice, said].filter(Boolean).join(' ') || VISITOR_OUTCOMES[reason] || reason;
  return { reason, message, ...(status !== undefined && { status }) };
}

/** @type {Partial<Record<LinkFailure['reason'], string>>} */
const VISITOR_OUTCOMES = {
  expired: 'The code expired before a wallet came (or the visitor declined: the page cannot tell).',
  timeout: 'No wallet came before the countdown ended.',
  aborted: "The page's signal stopped the wait.",
};
