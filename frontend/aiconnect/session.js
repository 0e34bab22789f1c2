// @ts-check
/**
 * The wallet's `ProviderSession`: one `chat` request per call (specs/aiconnect-core.md,
 * "Session types"; specs/wallet-provider.md, "chat").
 */

/** @typedef {import('./types.js').WalletProvider} WalletProvider */

/**
 * Return the session through which a connected site chats with the wallet.
 *
 * @param {WalletProvider} wallet
 * @param {string} model The account's default model, or '' with Auto.
 * @returns {import('./types.js').ProviderSession}
 */
export function walletSession(wallet, model) {
  return { providerId: 'aiwallet', model, chat: (request) => chat(wallet, request) };
}

/**
 * @param {WalletProvider} wallet
 * @param {import('./types.js').ChatRequest} request
 * @returns {Promise<import('./types.js').ChatResponse>}
 */
function chat(wallet, { messages, tools, options, signal, onStart, onText }) {
  return new Promise((resolve, reject) => {
    // The wallet rejects with the signal's reason on abort (wallet-provider.md, "The provider
    // object"); settling here too keeps that promise with any wallet, and drops late events.
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
    /** @param {import('./types.js').ChatEvent} event */
    const onEvent = (event) => {
      if (settled) return;
      if (event.kind === 'start') onStart?.({ providerName: event.providerName, model: event.model });
      else if (event.kind === 'text') onText?.(event.delta);
    };
    wallet.request('chat', params, onEvent, signal).then(
      (result) => settle(() => resolve(/** @type {any} */ (result))),
      (error) => settle(() => reject(error)),
    );
  });
}
