// @ts-check
/**
 * The one error class of @aiconnect/core.
 *
 *     Error
 *     └── WalletRequestError   a request the wallet refused or could not answer (has `status`)
 *
 * AI Wallet builds its errors with its own copy of this class (specs/aiconnect-core.md,
 * "WalletRequestError"), so `instanceof` is false for them: read `name` and `status` instead.
 * That is also why the class sets `name` as an own property rather than relying on the prototype.
 */

/**
 * Raised when the wallet refuses a request or cannot answer it.
 *
 * `status` follows HTTP: 401 the site is not connected, 403 declined / locked / no account,
 * 499 the visitor stopped the answer in the wallet, or the provider's own status.
 */
export class WalletRequestError extends Error {
  /**
   * @param {string} message An English sentence meant for the visitor.
   * @param {number} status The HTTP status of the failure.
   * @param {{ cause?: unknown }} [options]
   */
  constructor(message, status, options) {
    super(message, options);
    /** @type {string} */
    this.name = 'WalletRequestError';
    /** @type {number} */
    this.status = status;
  }
}
