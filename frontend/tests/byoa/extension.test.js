// @ts-check
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { callSkill, releaseOnPageHide, requestGrant } from '../../byoa/extension.js';

const MANIFEST = { byoa: '0.1-draft' };

/**
 * A provider whose `request` and `call` answer with `answer` (or throw it when `throws`).
 * @param {unknown} answer
 * @param {{ throws?: boolean }} [how]
 */
function providerAnswering(answer, { throws = false } = {}) {
  /** @type {unknown[][]} */
  const calls = [];
  const reply = async (/** @type {unknown[]} */ ...args) => {
    calls.push(args);
    if (throws) throw answer;
    return answer;
  };
  return { calls, released: /** @type {string[]} */ ([]), request: reply, call: reply, release(/** @type {string} */ id) { this.released.push(id); } };
}

describe('requestGrant', () => {
  it('should pass the manifest and return the grant', async () => {
    const byoa = providerAnswering({ grantId: 'g1', skills: ['audio.transcribe'], expiresAt: '2026-12-01T00:00:00Z' });
    assert.deepEqual(await requestGrant(byoa, MANIFEST), { grantId: 'g1', skills: ['audio.transcribe'], expiresAt: '2026-12-01T00:00:00Z' });
    assert.deepEqual(byoa.calls, [[MANIFEST]]);
  });

  it('should keep only what a grant states with the right types', async () => {
    const byoa = providerAnswering({ grantId: 'g1', skills: ['audio.transcribe', 7], expiresAt: 1, extra: '<b>' });
    assert.deepEqual(await requestGrant(byoa, MANIFEST), { grantId: 'g1', skills: ['audio.transcribe'] });
  });

  it('should keep the granted text models by code, strings only', async () => {
    const byoa = providerAnswering({ grantId: 'g1', skills: ['text.generate'], models: ['m1', { code: 'm2' }, 'm2'] });
    assert.deepEqual(await requestGrant(byoa, MANIFEST), { grantId: 'g1', skills: ['text.generate'], models: ['m1', 'm2'] });
  });

  for (const [name, answer] of /** @type {[string, unknown][]} */ ([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'g1'],
    ['an array', [{ grantId: 'g1' }]],
    ['an object without grantId', { skills: [] }],
    ['a grantId that is not a string', { grantId: 42 }],
    ['an empty grantId', { grantId: '' }],
  ])) {
    it(`should answer null when the wallet answers ${name}`, async () => {
      assert.equal(await requestGrant(providerAnswering(answer), MANIFEST), null);
    });
  }

  it('should answer null when request throws', async () => {
    assert.equal(await requestGrant(providerAnswering(new Error('no wallet'), { throws: true }), MANIFEST), null);
  });

  it('should answer null when the provider has no request at all', async () => {
    assert.equal(await requestGrant(/** @type {any} */ ({}), MANIFEST), null);
  });
});

describe('callSkill', () => {
  const input = { audio: { mime: 'audio/wav', base64: 'UklGRg==' } };

  it('should pass grant, skill, input and params and return output and receipt', async () => {
    const byoa = providerAnswering({ ok: true, output: { text: 'Peru' }, receipt: { cost: '0.000 USD' } });
    const result = await callSkill(byoa, 'g1', 'audio.transcribe', input, { language: 'sk' });
    assert.deepEqual(result, { ok: true, output: { text: 'Peru' }, receipt: { cost: '0.000 USD' } });
    assert.deepEqual(byoa.calls, [['g1', 'audio.transcribe', input, { language: 'sk' }]]);
  });

  it('should leave out a receipt that is not an object', async () => {
    const result = await callSkill(providerAnswering({ ok: true, output: { text: 'Peru' }, receipt: 'x' }), 'g1', 's', input);
    assert.deepEqual(result, { ok: true, output: { text: 'Peru' } });
  });

  for (const [name, answer] of /** @type {[string, unknown][]} */ ([
    ['{ ok: false }', { ok: false }],
    ['null', null],
    ['a string', 'Peru'],
    ['ok that is truthy but not true', { ok: 'yes', output: { text: 'Peru' } }],
    ['ok without output', { ok: true }],
    ['an output that is not an object', { ok: true, output: 'Peru' }],
    ['an output that is an array', { ok: true, output: ['Peru'] }],
  ])) {
    it(`should answer { ok: false } when the wallet answers ${name}`, async () => {
      assert.deepEqual(await callSkill(providerAnswering(answer), 'g1', 'audio.transcribe', input), { ok: false });
    });
  }

  it('should answer { ok: false } when call throws', async () => {
    assert.deepEqual(await callSkill(providerAnswering(new Error('boom'), { throws: true }), 'g1', 's', input), { ok: false });
  });
});

describe('releaseOnPageHide', () => {
  afterEach(() => { delete (/** @type {any} */ (globalThis)).window; });

  it('should release the grant when the page is hidden', () => {
    const win = /** @type {any} */ (globalThis).window = new EventTarget();
    const byoa = providerAnswering(null);
    releaseOnPageHide(byoa, 'g1');
    win.dispatchEvent(new Event('pagehide'));
    assert.deepEqual(byoa.released, ['g1']);
  });

  it('should release nothing after the returned function is called', () => {
    const win = /** @type {any} */ (globalThis).window = new EventTarget();
    const byoa = providerAnswering(null);
    releaseOnPageHide(byoa, 'g1')();
    win.dispatchEvent(new Event('pagehide'));
    assert.deepEqual(byoa.released, []);
  });

  it('should survive a release that throws or rejects', async () => {
    const win = /** @type {any} */ (globalThis).window = new EventTarget();
    let tries = 0;
    releaseOnPageHide(/** @type {any} */ ({ release: () => { tries++; throw new Error('gone'); } }), 'g1');
    releaseOnPageHide(/** @type {any} */ ({ release: async () => { tries++; throw new Error('gone'); } }), 'g2');
    win.dispatchEvent(new Event('pagehide'));
    await new Promise((resolve) => setImmediate(resolve)); // an unhandled rejection would fail the test run
    assert.equal(tries, 2);
  });

  it('should do nothing without a window', () => {
    const byoa = providerAnswering(null);
    assert.equal(typeof releaseOnPageHide(byoa, 'g1'), 'function');
    assert.deepEqual(byoa.released, []);
  });
});
