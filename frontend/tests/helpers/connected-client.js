// @ts-check
/**
 * Start an `AiConnect` client on a fake page whose fake wallet has approved the site, for tests
 * that need a connected client (the SDK peers, WalletFetch).
 */

import { AiConnect } from '../../aiconnect/client.js';
import { createFakeWallet, createFakeWindow, installWindow, waitForStatus } from './fake-wallet.js';

export const TEST_LINK = { connected: true, providerName: 'Test', model: 'test-model' };

/**
 * Return a connected client, its wallet, and a function that removes the fake page.
 *
 * @param {{ link?: any }} [options]
 */
export async function connectedClient({ link = TEST_LINK } = {}) {
  const wallet = createFakeWallet({ link });
  const restore = installWindow(createFakeWindow({ aiwallet: wallet }));
  const client = new AiConnect();
  await waitForStatus(client, link.connected ? 'connected' : 'disconnected');
  return { client, wallet, restore };
}

/** Token counts the fake wallet reports in the SDK tests. */
export const USAGE = { inputTokens: 120, outputTokens: 30, cachedInputTokens: 20 };

/** A tool the SDK tests offer: its definition in the wallet's format. */
export const WEATHER_CALL = { id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris', days: 2 } };
