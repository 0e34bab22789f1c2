// @ts-check
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';

import { DISCOVERY_TIMEOUT_MS, findWallet } from '../../aiconnect/client.js';
import { announceOnRequest, createFakeWallet, createFakeWindow } from '../helpers/fake-wallet.js';

describe('findWallet', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('should take window.aiwallet at once when its isAIWallet is true', async () => {
    const wallet = createFakeWallet();
    assert.equal(await findWallet(/** @type {any} */ (createFakeWindow({ aiwallet: wallet }))), wallet);
  });

  it('should ignore a window.aiwallet whose isAIWallet is not true', async () => {
    const win = /** @type {any} */ (createFakeWindow({ aiwallet: { isAIWallet: 'yes' } }));
    const found = findWallet(win);
    mock.timers.tick(DISCOVERY_TIMEOUT_MS);
    assert.equal(await found, null);
  });

  it('should dispatch aiwallet:request and take the first announce', async () => {
    const win = createFakeWindow();
    const first = createFakeWallet();
    announceOnRequest(win, first);
    announceOnRequest(win, createFakeWallet());
    assert.equal(await findWallet(/** @type {any} */ (win)), first);
  });

  it('should take an announce that arrives 299 ms after the request', async () => {
    const win = createFakeWindow();
    const wallet = createFakeWallet();
    announceOnRequest(win, wallet, (announce) => setTimeout(announce, DISCOVERY_TIMEOUT_MS - 1));
    const found = findWallet(/** @type {any} */ (win));
    mock.timers.tick(DISCOVERY_TIMEOUT_MS - 1);
    assert.equal(await found, wallet);
  });

  it('should give up at 300 ms and ignore a later announce', async () => {
    const win = createFakeWindow();
    const wallet = createFakeWallet();
    announceOnRequest(win, wallet, (announce) => setTimeout(announce, DISCOVERY_TIMEOUT_MS + 50));
    const found = findWallet(/** @type {any} */ (win));
    mock.timers.tick(DISCOVERY_TIMEOUT_MS);
    assert.equal(await found, null);
    mock.timers.tick(50); // the late announce fires into no listener
    assert.equal(await found, null);
  });

  it('should not take an announce whose detail is not a wallet', async () => {
    const win = createFakeWindow();
    announceOnRequest(win, { hello: 'world' });
    const found = findWallet(/** @type {any} */ (win));
    mock.timers.tick(DISCOVERY_TIMEOUT_MS);
    assert.equal(await found, null);
  });

  it('should wait 300 ms by the spec', () => {
    assert.equal(DISCOVERY_TIMEOUT_MS, 300);
  });
});
