/**
 * Return the wallet of `win`, or `null` when none announces itself within 300 ms
 * (wallet-provider.md, "How the SDK finds the wallet").
 *
 * @param {Window & { aiwallet?: unknown }} win The page's window (a test may pass its own).
 * @returns {Promise<WalletProvider | null>}
 */
export function findWallet(win: Window & {
    aiwallet?: unknown;
}): Promise<WalletProvider | null>;
/** The AI Wallet page, where a visitor without the wallet gets it. */
export const INSTALL_URL: "https://tensorpass.app/wallet";
/**
 * The site's connection to the visitor's AI, through AI Wallet. Built where `window` does not
 * exist (a server render), it does nothing and stays `checking`.
 */
export class AiConnect {
    /** Where a visitor without the wallet gets it. */
    installUrl: string;
    /** @type {ConnectionState} The current state. */
    state: ConnectionState;
    /** @type {import('./types.js').WalletFetch} An own property: it needs no `this`. */
    fetch: import("./types.js").WalletFetch;
    /** @type {import('./types.js').SdkOptions} For the OpenAI and Anthropic SDKs. */
    sdkOptions: import("./types.js").SdkOptions;
    /**
     * Call `listener` with each new state (not the current one); return a function that removes it.
     *
     * @param {import('./types.js').Listener} listener
     * @returns {() => void}
     */
    subscribe(listener: import("./types.js").Listener): () => void;
    /**
     * Ask the wallet to let this site use the visitor's AI; resolve whatever the outcome.
     *
     * @returns {Promise<void>}
     */
    connect(): Promise<void>;
    /**
     * Ask the wallet to forget this site, then become `disconnected`; reject when it refuses.
     *
     * @returns {Promise<void>}
     */
    disconnect(): Promise<void>;
    #private;
}
/** How long to wait for an `aiwallet:announce` before concluding there is no wallet. */
export const DISCOVERY_TIMEOUT_MS: 300;
export type ConnectionState = import("./types.js").ConnectionState;
export type WalletLink = import("./types.js").WalletLink;
export type WalletProvider = import("./types.js").WalletProvider;
