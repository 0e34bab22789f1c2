/**
 * Return why the code request failed, from its response (`null`: it never got one).
 *
 * @param {Response | null} response
 * @param {unknown} body the response's JSON, or null
 * @returns {LinkFailure}
 */
export function codeFailure(response: Response | null, body: unknown): LinkFailure;
/**
 * Tell the developer, in the console, why the code request failed; the visitor's page shows
 * only that the wallet did not connect.
 *
 * @param {LinkFailure} failed
 */
export function logFailure(failed: LinkFailure): void;
/**
 * @param {LinkFailure['reason']} reason
 * @param {number} [status]
 * @param {string} [said] what the server said (its own words, never the link)
 * @returns {LinkFailure}
 */
export function failure(reason: LinkFailure["reason"], status?: number, said?: string): LinkFailure;
export type LinkFailure = import("./types.js").LinkFailure;
