// @ts-check
// What the visitor reads when an answer fails, by the wallet's status
// (wallet-provider.md, "Errors"). Errors are recognised by name and status,
// not instanceof (aiconnect-core.md, "WalletRequestError").

/**
 * @param {unknown} error
 * @returns {{ status: number | null, message: string }}
 */
export function describeFailure(error) {
  const { name, status, message } = /** @type {{ name?: string, status?: number, message?: string }} */ (error ?? {});
  if (name === 'AbortError') return { status: null, message: 'Stopped. Ask again when you like.' };
  if (name !== 'WalletRequestError' || typeof status !== 'number') {
    return { status: null, message: 'Something went wrong on this page. Please try again.' };
  }
  const said = message ?? '';
  switch (status) {
    case 400: return { status, message: 'AI Wallet could not read the request this page sent. Please reload the page.' };
    case 401: return { status, message: 'This shop is no longer connected to your AI. Connect again to continue.' };
    case 403:
      if (/declined/i.test(said)) return { status, message: 'You declined the connection in AI Wallet. The shop’s own search below still works.' };
      if (/locked/i.test(said)) return { status, message: 'AI Wallet is locked. Unlock it, then ask again.' };
      if (/no AI account/i.test(said)) return { status, message: 'AI Wallet has no AI account connected. Add one in AI Wallet, then ask again.' };
      if (/not set up/i.test(said)) return { status, message: 'AI Wallet is not set up yet. Open it from the browser toolbar.' };
      return { status, message: said || 'AI Wallet refused the request.' };
    case 404: return { status, message: 'This version of AI Wallet does not know what the page asked. Please update AI Wallet.' };
    case 410: return { status, message: 'AI Wallet was updated. Reload this page to use it again.' };
    case 429: return { status, message: `Your AI provider says you have reached a limit (${said}). Try again later, or pick another account in AI Wallet.` };
    case 499: return { status, message: 'You stopped the answer in AI Wallet.' };
    case 502: return { status, message: `AI Wallet could not reach your AI provider: ${said}` };
    default: return { status, message: `Your AI provider could not answer (${said}).` };
  }
}
