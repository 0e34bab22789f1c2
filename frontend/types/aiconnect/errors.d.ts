/**
 *     Error
 *     └── WalletRequestError   the wallet refused a request or could not answer it
 *
 * AI Wallet throws its own copy of this class (specs/aiconnect-core.md, "WalletRequestError"):
 * read `name` and `status`, not `instanceof`. So `name` is an own property.
 */
/**
 * Raised when the wallet refuses a request or cannot answer it. `status` follows HTTP: 401 not
 * connected, 403 declined / locked / no account, 499 stopped in the wallet, or the provider's.
 */
export class WalletRequestError extends Error {
    /**
     * @param {string} message An English sentence meant for the visitor.
     * @param {number} status The HTTP status of the failure.
     * @param {{ cause?: unknown }} [options]
     */
    constructor(message: string, status: number, options?: {
        cause?: unknown;
    });
    status: number;
}
