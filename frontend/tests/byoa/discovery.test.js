// @ts-check
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';

import { findByoa } from '../../byoa/discovery.js';

/** A provider as the extension adds it. */
const provider = () => ({ request: async () => null, call: async () => ({ ok: false }), release: () => {} });

/** Install a fake `window` (an EventTarget, as pages have); return it. */
function installWindow(/** @type {object} */ props = {}) {
  const win = Object.assign(new EventTarget(), props);
  /** @type {any} */ (globalThis).window = win;
  return /** @type {any} */ (win);
}

describe('findByoa', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => {
    mock.timers.reset();
    delete (/** @type {any} */ (globalThis)).window;
  });

  it('should resolve null without a window, as in node or a server render', async () => {
    assert.equal(await findByoa(), null);
  });

  it('should take window.byoa at once when the extension already added it', async () => {
    const byoa = provider();
    installWindow({ byoa });
    assert.equal(await findByoa(), byoa);
  });

  it('should take a window.byoa that byoa:ready announces within the wait', async () => {
    const win = installWindow();
    const found = findByoa({ wait: 300 });
    const byoa = provider();
    setTimeout(() => { win.byoa = byoa; win.dispatchEvent(new Event('byoa:ready')); }, 299);
    mock.timers.tick(299);
    assert.equal(await found, byoa);
  });

  it('should resolve null when no byoa:ready comes within the wait, and ignore a later one', async () => {
    const win = installWindow();
    const found = findByoa({ wait: 300 });
    setTimeout(() => { win.byoa = provider(); win.dispatchEvent(new Event('byoa:ready')); }, 301);
    mock.timers.tick(300);
    assert.equal(await found, null);
    mock.timers.tick(1);
    assert.equal(await found, null);
  });

  it('should not take a window.byoa that is not a provider', async () => {
    const win = installWindow({ byoa: { request: 'yes' } });
    const found = findByoa();
    win.dispatchEvent(new Event('byoa:ready'));
    mock.timers.tick(300);
    assert.equal(await found, null);
  });

  it('should not wait when told to wait 0 ms', async () => {
    installWindow();
    assert.equal(await findByoa({ wait: 0 }), null);
  });
});
