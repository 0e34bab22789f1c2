/**
 * Answer one SDK request through the wallet.
 *
 * @param {() => Promise<{ state: ConnectionState, refusal: unknown } | null>} settled The client's
 *   state once its status check and any connect in progress have ended, with the wallet's refusal
 *   of the status check on load when that put the state in `error`; `null` outside a browser.
 * @param {URL | RequestInfo} input
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export function walletFetch(settled: () => Promise<{
    state: ConnectionState;
    refusal: unknown;
} | null>, input: URL | RequestInfo, init?: RequestInit): Promise<Response>;
/** The 401 message outside a browser (aiconnect-core.md, "WalletFetch"). */
export const NOT_IN_BROWSER: "AI Wallet answers in the browser only";
/** The 401 message when no wallet answered the page (aiconnect-core.md, "WalletFetch"). */
export const NOT_INSTALLED: "AI Wallet is not installed in this browser";
/** The 401 message when the site is not connected (aiconnect-core.md, "WalletFetch"). */
export const NOT_CONNECTED: "AI Wallet is not connected on this site";
/** The message of a stream whose answer never named who answers (wallet-provider.md, step 5). */
export const NO_START: "AI Wallet answered without naming who answers";
export type ConnectionState = import("../types.js").ConnectionState;
export type ChatStart = import("../types.js").ChatStart;
export type ProviderSession = import("../types.js").ProviderSession;
export type Translator = import("./shared.js").Translator;
export type WalletCall = import("./shared.js").WalletCall;
export type StreamWriter = import("./shared.js").StreamWriter;
