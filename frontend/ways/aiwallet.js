// @ts-check
/**
 * The AI Wallet way: `window.aiwallet` through `AiConnect` (specs/aiconnect-core.md). One account
 * answers the site, so the way has one model; `choices` become an instruction, `maxTokens` the
 * chat's `maxTokens` hint; the text streams.
 */

import { withChoices } from './messages.js';

/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').WayStatus} WayStatus */
/** @typedef {import('../aiconnect/client.js').AiConnect} AiConnect */
/** @typedef {import('../aiconnect/types.js').ConnectionState} ConnectionState */

/**
 * Return the AI Wallet way on `client` (one `AiConnect` per page).
 *
 * @param {AiConnect} client
 * @returns {Way}
 */
export function aiWalletWay(client) {
  /** @type {Way} */
  const way = {
    id: 'aiwallet',
    label: 'AI Wallet',
    streams: true,
    status: 'absent',
    detail: '',
    models: [],
    async detect(changed) {
      const state = await settled(client);
      apply(state);
      client.subscribe((next) => { apply(next); changed(); });
      return way.status;
    },
    async connect() {
      await client.connect();
      return client.state.status === 'connected';
    },
    async generate({ messages, choices, maxTokens, signal, onText }) {
      const state = client.state;
      if (state.status !== 'connected') return null;
      const response = await state.session.chat({
        messages: withChoices(messages, choices),
        ...(maxTokens ? { options: { maxTokens } } : {}),
        signal,
        onText,
      });
      const text = response?.message?.content;
      return typeof text === 'string' ? { text, model: response.model } : null;
    },
  };

  /** @param {ConnectionState} state */
  function apply(state) {
    way.status = statusOf(state);
    way.detail = state.status === 'connected'
      ? (state.model ? `${state.providerName} (${state.model})` : state.providerName)
      : state.status === 'error' ? state.message : '';
  }
  return way;
}

/**
 * @param {ConnectionState} state
 * @returns {WayStatus}
 */
function statusOf(state) {
  switch (state.status) {
    case 'noWallet': case 'checking': return 'absent';
    case 'connected': return 'ready';
    case 'connecting': return 'connecting';
    default: return 'offered';
  }
}

/**
 * Resolve with the client's state once its first status check is over.
 *
 * @param {AiConnect} client
 * @returns {Promise<ConnectionState>}
 */
function settled(client) {
  if (client.state.status !== 'checking') return Promise.resolve(client.state);
  return new Promise((resolve) => {
    const stop = client.subscribe((state) => {
      if (state.status === 'checking') return;
      stop();
      resolve(state);
    });
  });
}
