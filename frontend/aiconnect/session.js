// @ts-check
/**
 * The wallet's `ProviderSession`: one `chat` request to `window.aiwallet` per call
 * (specs/aiconnect-core.md, "Session types"; specs/wallet-provider.md, "chat").
 */

/** @typedef {import('./types.js').WalletProvider} WalletProvider */
/** @typedef {import('./types.js').ProviderSession} ProviderSession */
/** @typedef {import('./types.js').ChatRequest} ChatRequest */
/** @typedef {import('./types.js').ChatResponse} ChatResponse */
/** @typedef {import('./types.js').ChatEvent} ChatEvent */

/**
 * Return the session through which a connected site chats with the wallet.
 *
 * @param {WalletProvider} wallet
 * @param {string} model The account's default model, or '' with Auto.
 * @returns {ProviderSession}
 */
export function walletSession(wallet, model) {
  return { providerId: 'aiwallet', model, chat: (request) => chat(wallet, request) };
}

/**
 * Send one `chat` request and resolve with the wallet's answer.
 *
 * @param {WalletProvider} wallet
 * @param {ChatRequest} request
 * @returns {Promise<ChatResponse>}
 */
function chat(wallet, { messages, tools, options, signal, onStart, onText }) {
  return new Promise((resolve, reject) => {
    // The wallet rejects with the signal's reason when it is aborted (wallet-provider.md,
    // "The provider object"); settling here too keeps that promise for any wallet, and no
    // event that arrives after the end reaches the page's hooks.
    let settled = false;
    const onAbort = () => settle(() => reject(signal?.reason));
    /** @param {() => void} action */
    const settle = (action) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      action();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);

    /** @type {import('./types.js').WalletChatParams} */
    const params = { messages };
    if (tools) params.tools = tools;
    if (options) params.options = options;
    /** @param {ChatEvent} event */
    const onEvent = (event) => {
      if (settled) return;
      if (event.kind === 'start') onStart?.({ providerName: event.providerName, model: event.model });
      else if (event.kind === 'text') onText?.(event.delta);
    };
    wallet.request('chat', params, onEvent, signal).then(
      (result) => settle(() => resolve(/** @type {ChatResponse} */ (result))),
      (error) => settle(() => reject(error)),
    );
  });
}
