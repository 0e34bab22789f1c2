// @ts-check
// The npm driver's one consent record for both ways in (playwright/consents.js), as the Python
// driver's testwallet/_consents.py keeps it: readable and settable, carried to a file and back.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import vm from 'node:vm';

import { ByoaExtension } from '../../playwright/byoa-driver.js';
import { Consents, moreAsked } from '../../playwright/consents.js';

const SITE = 'http://127.0.0.1:8000';
const GEO = {
  byoa: '0.1-draft',
  purpose: { summary: 'Family geography game', limits: { maxClipSeconds: 15, maxCallsPerMinute: 40 } },
  skills: { 'audio.transcribe': { languages: ['en'], required: true } },
  privacy: 'personal-voice',
  expectedCost: { perSession: '0.05 USD' },
};
const WIDER = {
  ...GEO,
  purpose: { ...GEO.purpose, limits: { maxClipSeconds: 15, maxCallsPerMinute: 80 } },
  skills: { ...GEO.skills, 'text.generate': { required: false, models: { count: 2 } } },
};

/** A Playwright target whose one frame is a page of SITE, calling the binding as byoa.js does. */
async function installed(extension = new ByoaExtension()) {
  /** @type {(source: any, message: any) => any} */
  let binding = () => { throw new Error('not installed'); };
  await extension.install({
    async exposeBinding(/** @type {string} */ _name, /** @type {any} */ callback) { binding = callback; },
    async addInitScript() {},
  });
  const frame = { url: () => `${SITE}/geography/`, isDetached: () => false };
  let ref = 0;
  /** @param {object} manifest @param {boolean} activated */
  const request = async (manifest, activated = true) => {
    ref += 1;
    const answer = await binding({ frame }, { type: 'request', ref, activated, manifest, valid: true, validation: { errors: [], warnings: [] } });
    if (answer.decision === 'allow') {
      const skills = Object.keys(/** @type {any} */ (manifest).skills);
      await binding({ frame }, { type: 'request-done', ref, grant: { grantId: `g${ref}`, skills }, reason: 'granted' });
    }
    return answer;
  };
  return { extension, request };
}

describe('Consents', () => {
  it('should show all of a first consent, then only what a site asks for more', () => {
    const consents = new Consents();
    assert.equal(consents.more(SITE, GEO), null);
    consents.allow(SITE, GEO, ['audio.transcribe']);
    assert.deepEqual(consents.more(SITE, GEO), []);
    assert.deepEqual(consents.more(SITE, WIDER), [
      'the skill text.generate', '2 models for text.generate (allowed 0)', 'maxCallsPerMinute 80 (allowed 40)',
    ]);
    assert.deepEqual(moreAsked(GEO, WIDER, ['audio.transcribe', 'text.generate']), []);
    const unbounded = { ...GEO, purpose: { summary: 'No limits' } };
    assert.deepEqual(moreAsked(unbounded, GEO, ['audio.transcribe']), ['no maxCallsPerMinute (allowed 40)', 'no maxClipSeconds (allowed 15)']);
  });

  it('should keep the sites paused until resumed', () => {
    const consents = new Consents();
    consents.pause(SITE);
    assert.deepEqual([...consents.paused], [SITE]);
    consents.resume(SITE);
    assert.deepEqual([...consents.paused], []);
  });

  it('should carry the record to a file and back whole', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'consents-')), 'consents.json');
    const consents = new Consents();
    consents.allow(SITE, GEO, ['audio.transcribe'], { onItsOwn: true });
    consents.pause('https://paused.example');
    consents.save(file);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
      sites: { [SITE]: { manifest: GEO, skills: ['audio.transcribe'], onItsOwn: true } },
      paused: ['https://paused.example'],
    });
    const read = Consents.load(file);
    assert.deepEqual(read.sites.get(SITE), { manifest: GEO, skills: ['audio.transcribe'], onItsOwn: true });
    assert.deepEqual([...read.paused], ['https://paused.example']);
  });

  it('should refuse a record that is not one, naming what is wrong, and read nothing of it', () => {
    assert.throws(() => Consents.fromJSON([]), /consents are \{ "sites"/);
    assert.throws(() => Consents.fromJSON({ sites: {}, paused: [1] }), /consents are \{ "sites"/);
    assert.throws(() => Consents.fromJSON({ sites: { [SITE]: { manifest: GEO, skills: ['a'] } }, paused: [] }),
      /the consent of "http:\/\/127.0.0.1:8000" is \{ manifest/);
    assert.throws(() => Consents.fromJSON({ sites: { [SITE]: { manifest: {}, skills: [], onItsOwn: false } }, paused: [] }), TypeError);
    const file = join(mkdtempSync(join(tmpdir(), 'consents-')), 'consents.json');
    writeFileSync(file, '{"sites": ');
    assert.throws(() => Consents.load(file), SyntaxError);
    assert.equal(readFileSync(file, 'utf8'), '{"sites": ');
  });
});

describe('ByoaExtension.consents', () => {
  it('should record what the visitor allowed, and log only what a later request asks for more', async () => {
    const { extension, request } = await installed();
    await request(GEO);
    await request(WIDER);
    assert.deepEqual(extension.requests.map((r) => r.more), [null, [
      'the skill text.generate', '2 models for text.generate (allowed 0)', 'maxCallsPerMinute 80 (allowed 40)',
    ]]);
    assert.deepEqual(extension.consents.sites.get(SITE)?.skills, ['audio.transcribe', 'text.generate']);
  });

  it('should grant a site allowed the other way with "decide on my own" with no window and no click', async () => {
    // byoa-sites.md: "a site allowed one way is allowed the other way too".
    const { extension, request } = await installed();
    extension.consents.allow(SITE, GEO, ['audio.transcribe'], { onItsOwn: true }); // as the direct link's wallet did
    extension.decline(); // a window would be declined: none is shown
    assert.equal((await request(GEO, false)).decision, 'allow');
    assert.deepEqual([extension.requests[0].onItsOwn, extension.requests[0].more], [true, []]);
    // Asking for more needs a window again: declined here.
    assert.deepEqual(await request(WIDER, true), { decision: 'decline' });
  });

  it('should take a record set from a file, and pause through it', async () => {
    const { extension, request } = await installed();
    const consents = new Consents();
    consents.pause(SITE);
    extension.consents = Consents.fromJSON(JSON.parse(JSON.stringify(consents)));
    assert.deepEqual(await request(GEO), { decision: 'block' });
    extension.resume(SITE);
    assert.equal(extension.consents.paused.has(SITE), false);
    assert.equal((await request(GEO)).decision, 'allow');
  });

  it('should remember "decide on my own" ticked in the window for the next request', async () => {
    const { extension, request } = await installed();
    extension.allow({ decideOnMyOwn: true });
    await request(GEO);
    assert.equal(extension.consents.sites.get(SITE)?.onItsOwn, true);
    assert.equal((await request(GEO, false)).decision, 'allow');
  });
});

describe('the stand-in panel\'s consent (testwallet/byoa-consent.js, as a browser runs it)', () => {
  /** @type {Record<string, any>} */
  const page = {};
  page.window = page;
  vm.createContext(page);
  for (const name of ['byoa-skills.js', 'byoa-manifest.js', 'byoa-consent.js']) {
    vm.runInContext(readFileSync(new URL(`../../testwallet/${name}`, import.meta.url), 'utf8'), page);
  }
  const { consentQuestion } = page.__testwalletByoaConsent;
  /** @param {any} question */
  const words = (question) => [question.title, ...question.lines].join('\n');

  it('should name what the AI will do in a visitor\'s words and say it is a stand-in', () => {
    const said = words(consentQuestion('127.0.0.1:8000', WIDER, null, null));
    assert.match(said, /^Let 127\.0\.0\.1:8000 ask your AI to listen to what you say and write it down and answer in text\?/);
    assert.match(said, /The BYOA extension stand-in \(not an AI\)\./);
    assert.doesNotMatch(said, /audio\.transcribe|text\.generate/);
  });

  it('should show only more models and a limit left out, in a visitor\'s words', () => {
    const two = { ...WIDER, purpose: { summary: 'More', limits: { maxClipSeconds: 15 } } };
    const three = { ...two, skills: { ...two.skills, 'text.generate': { required: false, models: { count: 3 } } } };
    const said = words(consentQuestion('a.example', three, { manifest: WIDER, skills: ['audio.transcribe', 'text.generate'] }, null));
    assert.deepEqual(said.split('\n').filter((line) => line.startsWith('• ')), [
      '• use 3 AI models to answer in text (you allowed 2)',
      '• no limit on uses a minute (you allowed 80)',
    ]);
    assert.doesNotMatch(said, /listen to what you say and write it down|text\.generate|maxCallsPerMinute/);
  });
});
