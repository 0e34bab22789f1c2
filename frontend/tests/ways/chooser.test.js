// @ts-check
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';

import { DETECT_TIMEOUT_MS, WAY_ORDER, WayChooser } from '../../ways/chooser.js';
import { scriptedWay } from './fakes.js';

const ASK = { messages: [{ role: /** @type {const} */ ('user'), content: 'Is it alive?' }], choices: ['yes', 'no'] };

describe('WayChooser order and presence', () => {
  it('should offer the present ways in the documented order with own mode last', async () => {
    const chooser = new WayChooser([
      scriptedWay('builtin'), scriptedWay('own', { status: 'ready' }), scriptedWay('link'),
      scriptedWay('extension', { status: 'absent' }), scriptedWay('aiwallet'),
    ]);
    await chooser.ready;
    assert.deepEqual(chooser.ways.map((way) => way.id), ['aiwallet', 'link', 'builtin', 'own']);
    assert.deepEqual(WAY_ORDER, ['aiwallet', 'extension', 'link', 'builtin', 'own']);
  });

  it('should add own mode when the page gives none and start with it when no way is ready', async () => {
    const chooser = new WayChooser([scriptedWay('extension')]);
    await chooser.ready;
    assert.deepEqual(chooser.ways.map((way) => way.id), ['extension', 'own']);
    assert.equal(chooser.current.id, 'own');
  });

  it('should start with the first way that is ready without a click, in order', async () => {
    const chooser = new WayChooser([scriptedWay('builtin', { status: 'ready' }), scriptedWay('aiwallet', { status: 'ready' })]);
    await chooser.ready;
    assert.equal(chooser.current.id, 'aiwallet');
  });

  it('should count a way whose detection throws as absent', async () => {
    const broken = scriptedWay('builtin');
    broken.detect = async () => { throw new Error('no'); };
    const chooser = new WayChooser([broken]);
    await chooser.ready;
    assert.deepEqual(chooser.ways.map((way) => way.id), ['own']);
  });

  it('should count a way whose detection never settles as absent after DETECT_TIMEOUT_MS', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const hanging = scriptedWay('builtin');
      hanging.detect = () => new Promise(() => {});
      const chooser = new WayChooser([hanging, scriptedWay('extension')]);
      await Promise.resolve();
      mock.timers.tick(DETECT_TIMEOUT_MS);
      await chooser.ready;
      assert.deepEqual(chooser.ways.map((way) => way.id), ['extension', 'own']);
    } finally {
      mock.timers.reset();
    }
  });

  it('should refuse a way it does not know, naming the ones it does', () => {
    assert.throws(() => new WayChooser([scriptedWay(/** @type {any} */ ('carrier-pigeon'))]), /use one of aiwallet, extension/);
  });
});

describe('WayChooser switching', () => {
  it('should connect an offered way from use() and make it current', async () => {
    const extension = scriptedWay('extension');
    const chooser = new WayChooser([extension]);
    await chooser.ready;
    /** @type {string[]} */
    const seen = [];
    chooser.subscribe((c) => seen.push(c.current.id));
    assert.equal(await chooser.use('extension'), true);
    assert.equal(chooser.current.id, 'extension');
    assert.equal(extension.connected, 1);
    assert.equal(seen.at(-1), 'extension');
  });

  it('should fall back to own mode with a notice when a way does not connect', async () => {
    const chooser = new WayChooser([scriptedWay('aiwallet', { status: 'ready' }), scriptedWay('extension', { connects: false })]);
    await chooser.ready;
    assert.equal(await chooser.use('extension'), false);
    assert.equal(chooser.current.id, 'own');
    assert.match(chooser.notice, /the extension way did not connect, so the site plays on its own/);
  });

  it('should fall back when connect throws, and when the way is absent', async () => {
    const throwing = scriptedWay('link');
    throwing.connect = async () => { throw new Error('boom'); };
    const chooser = new WayChooser([throwing, scriptedWay('builtin', { status: 'absent' })]);
    await chooser.ready;
    assert.equal(await chooser.use('link'), false);
    assert.equal(await chooser.use('builtin'), false);
    assert.match(chooser.notice, /not available in this browser/);
    assert.equal(chooser.current.id, 'own');
  });

  it('should give up a way that is still connecting when the signal aborts, and drop its late yes', async () => {
    /** @type {(connected: boolean) => void} */
    let answer = () => {};
    const slow = scriptedWay('extension');
    slow.connect = () => new Promise((resolve) => { answer = resolve; });
    const chooser = new WayChooser([slow]);
    await chooser.ready;
    const stop = new AbortController();
    const using = chooser.use('extension', { signal: stop.signal });
    stop.abort();
    assert.equal(await using, false);
    assert.equal(chooser.current.id, 'own');
    assert.equal(chooser.notice, 'You stopped waiting for the extension way, so the site plays on its own.');
    answer(true);
    await Promise.resolve();
    assert.equal(chooser.current.id, 'own');
  });

  it('should switch back to own mode on request without connecting anything', async () => {
    const chooser = new WayChooser([scriptedWay('aiwallet', { status: 'ready' })]);
    await chooser.ready;
    assert.equal(await chooser.use('own'), true);
    assert.equal(chooser.current.id, 'own');
    assert.equal(await chooser.generate(ASK), null);
  });

  it('should hand over to own mode when the current way stops being ready on its own', async () => {
    const wallet = scriptedWay('aiwallet', { status: 'ready' });
    /** @type {() => void} */
    let changed = () => {};
    wallet.detect = async (onChange) => { changed = onChange; wallet.status = 'ready'; return 'ready'; };
    const chooser = new WayChooser([wallet]);
    await chooser.ready;
    assert.equal(chooser.current.id, 'aiwallet');
    wallet.status = 'offered';
    changed();
    assert.equal(chooser.current.id, 'own');
    assert.match(chooser.notice, /no longer connected/);
  });
});

describe('WayChooser.generate', () => {
  it('should pass the request to the current way and name the way that answered', async () => {
    const way = scriptedWay('extension', { status: 'offered', answers: [{ text: 'yes', model: 'm1' }], models: ['m1', 'm2'] });
    const chooser = new WayChooser([way]);
    await chooser.ready;
    await chooser.use('extension');
    assert.deepEqual(await chooser.generate({ ...ASK, model: 'm1', maxTokens: 5 }), { text: 'yes', way: 'extension', model: 'm1' });
    assert.deepEqual(way.asked[0].choices, ['yes', 'no']);
    assert.equal(way.asked[0].maxTokens, 5);
  });

  it('should never ask a way for a model it was not granted', async () => {
    const way = scriptedWay('extension', { answers: [{ text: 'yes' }], models: ['m1'] });
    const chooser = new WayChooser([way]);
    await chooser.ready;
    await chooser.use('extension');
    await assert.rejects(chooser.generate({ ...ASK, model: 'm2' }), /Model "m2" was not granted to the extension way; granted: m1/);
    assert.equal(way.asked.length, 0);
    assert.equal(chooser.current.id, 'extension');
  });

  it('should answer null and fall back to own mode when the way says no', async () => {
    const chooser = new WayChooser([scriptedWay('aiwallet', { status: 'ready', answers: [null] })]);
    await chooser.ready;
    assert.equal(await chooser.generate(ASK), null);
    assert.equal(chooser.current.id, 'own');
    assert.match(chooser.notice, /the aiwallet way did not answer, so the site plays on its own/);
  });

  it('should fall back when the way fails, quoting a wallet error for the visitor', async () => {
    const refusal = Object.assign(new Error('Claude answered 429: Your plan is spent'), { name: 'WalletRequestError', status: 429 });
    const chooser = new WayChooser([scriptedWay('aiwallet', { status: 'ready', answers: [refusal] })]);
    await chooser.ready;
    assert.equal(await chooser.generate(ASK), null);
    assert.match(chooser.notice, /\(Claude answered 429: Your plan is spent\)/);
  });

  it('should fall back when the answer is not text', async () => {
    const chooser = new WayChooser([scriptedWay('builtin', { status: 'ready', answers: [{ text: 42 }] })]);
    await chooser.ready;
    assert.equal(await chooser.generate(ASK), null);
    assert.equal(chooser.current.id, 'own');
  });

  it('should reject with the abort reason and keep the way when the page aborts', async () => {
    const way = scriptedWay('aiwallet', { status: 'ready' });
    const controller = new AbortController();
    way.generate = (request) => new Promise((_, reject) => {
      request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
    });
    const chooser = new WayChooser([way]);
    await chooser.ready;
    const asking = chooser.generate({ ...ASK, signal: controller.signal });
    controller.abort(new DOMException('Stopped on the page', 'AbortError'));
    await assert.rejects(asking, { name: 'AbortError', message: 'Stopped on the page' });
    assert.equal(chooser.current.id, 'aiwallet');
    assert.equal(chooser.notice, '');
  });

  it('should not ask at all with an already aborted signal', async () => {
    const way = scriptedWay('aiwallet', { status: 'ready', answers: [{ text: 'yes' }] });
    const chooser = new WayChooser([way]);
    await chooser.ready;
    await assert.rejects(chooser.generate({ ...ASK, signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(way.asked.length, 0);
  });

  it('should not drop a newer way when an older one says no late', async () => {
    /** @type {(value: any) => void} */
    let finishOld = () => {};
    const old = scriptedWay('aiwallet', { status: 'ready' });
    old.generate = () => new Promise((resolve) => { finishOld = resolve; });
    const chooser = new WayChooser([old, scriptedWay('extension', { answers: [{ text: 'no' }] })]);
    await chooser.ready;
    const late = chooser.generate(ASK);
    await chooser.use('extension');
    finishOld(null);
    assert.equal(await late, null);
    assert.equal(chooser.current.id, 'extension');
  });
});

describe('WayChooser.generate without falling back', () => {
  it('should answer null for a no and keep the current way', async () => {
    const chooser = new WayChooser([scriptedWay('extension', { status: 'offered', answers: [null, new Error('x')], models: ['m1', 'm2'] })]);
    await chooser.ready;
    await chooser.use('extension');
    assert.equal(await chooser.generate({ ...ASK, model: 'm2' }, { fallBack: false }), null);
    assert.equal(await chooser.generate({ ...ASK, model: 'm2' }, { fallBack: false }), null);
    assert.equal(chooser.current.id, 'extension');
    assert.equal(chooser.notice, '');
  });
});
