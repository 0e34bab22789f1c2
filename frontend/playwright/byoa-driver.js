// @ts-check
/**
 * The test BYOA extension for Playwright in JavaScript (Playwright Test or a plain script): the
 * visitor and the models behind `window.byoa` of testwallet/byoa.js, answering through the Playwright binding
 * `__testwalletByoa`, as testwallet/extension.py does for pytest. byoa.js keeps the wallet's rules
 * (origins, the click, the manifest, the limits); this driver only answers for the visitor (the
 * consent window) and the models (each call's output), and logs what the page asked and received.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Consents } from './consents.js';
import { DEFAULT_TIMEOUT_MS, Pulse, ScriptError, checkConsent, frameOrigin, waitUntil } from './driver.js';

/** The Playwright binding through which byoa.js asks the test. */
export const BINDING = '__testwalletByoa';

/**
 * The test wallet's panel, the stub's clip reading, its skill table, its manifest rules, what its
 * consent shows, its checks of a call and the stub, to add as init scripts in this order.
 */
export const SCRIPT_PATHS = [
  fileURLToPath(new URL('../testwallet/panel.js', import.meta.url)),
  fileURLToPath(new URL('../testwallet/byoa-clip.js', import.meta.url)),
  fileURLToPath(new URL('../testwallet/byoa-skills.js', import.meta.url)),
  fileURLToPath(new URL('../testwallet/byoa-manifest.js', import.meta.url)),
  fileURLToPath(new URL('../testwallet/byoa-consent.js', import.meta.url)),
  fileURLToPath(new URL('../testwallet/byoa-checks.js', import.meta.url)),
  fileURLToPath(new URL('../testwallet/byoa.js', import.meta.url)),
];

/**
 * The skill table (testwallet/skills.json): each skill the stub serves, with its input, params,
 * output and default answer, as byoa.js and testwallet/extension.py read it.
 * @type {Record<string, { input: string, params: Record<string, string>, output: Record<string, string>, default: string }>}
 */
export const SKILLS = JSON.parse(readFileSync(new URL('../testwallet/skills.json', import.meta.url), 'utf8')).skills;

/** The skills the stub serves (specs/byoa-sites.md), as the table declares them. */
const WALLET_SKILLS = Object.keys(SKILLS);

/** A scripted output that makes the call fail (the page gets `{ ok: false }`). */
export const FAILED = Object.freeze({ failed: true });

/**
 * @typedef {Record<string, unknown> | typeof FAILED} Output e.g. `{ text: 'Peru' }`, or FAILED
 * @typedef {object} RequestRecord One `window.byoa.request(manifest)`.
 * @property {string} origin
 * @property {boolean} activated called with user activation (a click)
 * @property {unknown} manifest
 * @property {boolean} valid
 * @property {unknown[]} errors the manifest's errors
 * @property {string} decision allow, decline, block, no-answer, quiet
 * @property {boolean} onItsOwn answered by "decide on my own", with no window
 * @property {string[] | null} more what the window showed as more than was allowed (null: all of it)
 * @property {unknown} grant what the page got (null for every "no")
 * @property {string} reason "granted", or why the page got null
 * @property {boolean} done
 * @typedef {object} CallRecord One `window.byoa.call(grantId, skill, input, params)`.
 * @property {string} origin
 * @property {unknown} grantId
 * @property {string} skill
 * @property {any} summary measured by the stub
 * @property {any} params
 * @property {any} input null for a call the stub refused
 * @property {string | null} refused why the stub refused it without asking a model
 * @property {boolean | null} ok what the page got
 * @property {unknown} output
 * @property {boolean} done
 */

/** The visitor and the models behind one test's `window.byoa`. */
export class ByoaExtension {
  /** @type {RequestRecord[]} */
  requests = [];
  /** @type {CallRecord[]} */
  calls = [];
  /** @type {unknown[]} the released grant ids */
  releases = [];
  /** @type {string[]} scripted answers the driver could not use */
  problems = [];

  /** @type {import('./driver.js').Consent} */
  #consent = 'allow';
  /** @type {string[] | null} */
  #tickedSkills = null;
  /** @type {Map<string, Output[]>} */
  #outputs = new Map();
  /** @type {Set<string>} */
  #failing = new Set();
  #tickDecideOnMyOwn = false;
  #decidesOnItsOwn = false;
  /** @type {Map<string, RequestRecord | CallRecord>} */
  #pending = new Map();
  #pulse = new Pulse();
  /** @type {unknown[]} */
  #installed = [];
  /**
   * What the visitor allowed each site and paused, shared by the wallet's two ways in: `save` it
   * for the headless wallet's `--consents FILE`, or set it to one `Consents.load` read.
   * @type {Consents}
   */
  consents = new Consents();

  /**
   * Give a Page or BrowserContext `window.byoa`, before its scripts run.
   *
   * @param {import('./driver.js').Target} target
   */
  async install(target) {
    if (this.#installed.includes(target)) return;
    await target.exposeBinding(BINDING, (source, message) => this.#onMessage(source, message));
    for (const path of SCRIPT_PATHS) await target.addInitScript({ path });
    this.#installed.push(target);
  }

  /**
   * What the visitor does in the consent window: 'allow' (the default), 'decline', 'close' (as a
   * decline) or 'wait' (no answer: null after 120 s on the page's clock).
   */
  get consent() {
    return this.#consent;
  }

  set consent(choice) {
    this.#consent = checkConsent(choice);
  }

  /**
   * Answer the consent window with Allow, ticking `skills` (all offered when omitted), and
   * "decide on my own" when `decideOnMyOwn`.
   *
   * @param {{ skills?: string[], decideOnMyOwn?: boolean }} [options]
   */
  allow({ skills, decideOnMyOwn = false } = {}) {
    this.#consent = 'allow';
    this.#tickedSkills = skills ? [...skills] : null;
    this.#tickDecideOnMyOwn = decideOnMyOwn;
  }

  /**
   * Let the wallet decide on its own for the site (or stop): requests are granted with no window
   * and no click.
   *
   * @param {boolean} [on]
   */
  decideOnMyOwn(on = true) {
    this.#decidesOnItsOwn = on;
  }

  /** Answer the consent window with Decline: the page gets null. */
  decline() {
    this.#consent = 'decline';
  }

  /** Leave the consent window open: the page gets null when 120 s have passed on its clock. */
  noAnswer() {
    this.#consent = 'wait';
  }

  /**
   * Pause the site at `origin` as the visitor does in the wallet: its requests get null and its
   * calls `{ ok: false }` until `resume(origin)` (specs/byoa-sites.md: "A site the visitor paused
   * is not reconnected").
   *
   * @param {string} origin such as 'http://127.0.0.1:8000'
   */
  pause(origin) {
    this.consents.pause(origin);
  }

  /**
   * Resume the site at `origin`.
   *
   * @param {string} origin
   */
  resume(origin) {
    this.consents.resume(origin);
  }

  /**
   * Queue outputs for the next calls of `skill`; FAILED makes one call fail.
   *
   * @param {string} skill
   * @param {...Output} outputs
   */
  reply(skill, ...outputs) {
    for (const output of outputs) checkOutput(skill, output);
    this.#outputs.set(skill, [...(this.#outputs.get(skill) ?? []), ...outputs]);
  }

  /**
   * Make every later call of `skill` fail (the page gets `{ ok: false }`), or stop doing so.
   *
   * @param {string} skill
   * @param {boolean} [failing]
   */
  failCalls(skill, failing = true) {
    if (failing) this.#failing.add(skill);
    else this.#failing.delete(skill);
  }

  /**
   * Wait until `predicate(extension)` is true, such as `(ext) => ext.calls.length === 2`.
   *
   * @param {(extension: ByoaExtension) => unknown} predicate
   * @param {{ timeout?: number }} [options] in milliseconds
   */
  async waitUntil(predicate, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
    await waitUntil(() => predicate(this), this.#pulse, timeout, `${predicate.name || 'The predicate'} did not become true`);
  }

  /** Throw a ScriptError if a scripted answer could not be used during the test. */
  check() {
    if (this.problems.length) {
      throw new ScriptError(`the test wallet could not use a scripted answer:\n${this.problems.join('\n')}`);
    }
  }

  // -- The binding -------------------------------------------------------------------------------

  /**
   * @param {{ frame: any }} source
   * @param {any} message
   */
  async #onMessage(source, message) {
    try {
      return this.#dispatch(frameOrigin(source), source.frame, message);
    } catch (error) {
      this.problems.push(String(error));
      throw error;
    } finally {
      this.#pulse.wake();
    }
  }

  /**
   * @param {string} origin
   * @param {unknown} frame
   * @param {any} message
   */
  #dispatch(origin, frame, message) {
    const key = `${frameKey(frame)}:${message.ref}`;
    switch (message.type) {
      case 'request': {
        /** @type {RequestRecord} */
        const record = {
          origin, activated: Boolean(message.activated), manifest: message.manifest, valid: Boolean(message.valid),
          errors: message.validation?.errors ?? [], decision: '', onItsOwn: false, more: null, grant: null, reason: '', done: false,
        };
        this.requests.push(record);
        this.#pending.set(key, record);
        const answer = this.#answerRequest(record);
        Object.assign(record, { decision: answer.decision, onItsOwn: 'onItsOwn' in answer && answer.onItsOwn });
        return answer;
      }
      case 'request-done': {
        const record = /** @type {RequestRecord | undefined} */ (this.#pending.get(key));
        this.#pending.delete(key);
        if (record) Object.assign(record, { grant: message.grant, reason: message.reason, done: true });
        if (record && message.grant && typeof record.manifest === 'object' && record.manifest !== null) {
          const onItsOwn = record.onItsOwn || this.#decidesOnItsOwn;
          this.consents.allow(origin, /** @type {Record<string, any>} */ (record.manifest), message.grant.skills, { onItsOwn });
        }
        return null;
      }
      case 'call': {
        /** @type {CallRecord} */
        const record = {
          origin, grantId: message.grantId, skill: message.skill, summary: message.summary, params: message.params,
          input: message.input ?? null, refused: message.refused ?? null, ok: null, output: null, done: false,
        };
        this.calls.push(record);
        if (record.refused) {
          Object.assign(record, { ok: false, done: true });
          return null;
        }
        this.#pending.set(key, record);
        return this.#answerCall(record);
      }
      case 'call-done': {
        const record = /** @type {CallRecord | undefined} */ (this.#pending.get(key));
        this.#pending.delete(key);
        if (record) Object.assign(record, { ok: message.ok, done: true }, message.ok ? {} : { output: null });
        return null;
      }
      case 'release':
        this.releases.push(message.grantId);
        return null;
      default:
        throw new Error(`byoa.js sent an unknown message type ${JSON.stringify(message.type)}`);
    }
  }

  /** @param {RequestRecord} record */
  #answerRequest(record) {
    if (!record.valid) return { decision: 'quiet' }; // the wallet shows nothing for a manifest it rejects
    if (this.consents.paused.has(record.origin)) return { decision: 'block' }; // a paused site: null, no window
    const manifest = /** @type {Record<string, any>} */ (record.manifest); // a valid manifest is an object
    record.more = this.consents.more(record.origin, manifest);
    const allowed = this.consents.sites.get(record.origin);
    // "a site allowed one way is allowed the other way too": "decide on my own", ticked either
    // way, grants with no window while the site asks for nothing more.
    if (this.#decidesOnItsOwn || (allowed?.onItsOwn && record.more?.length === 0)) return this.#allowed(true);
    if (!record.activated) return { decision: 'quiet' }; // no click: the wallet shows nothing
    // byoa.js's words: closing the window is a decline, leaving it open is no answer.
    if (this.#consent !== 'allow') return { decision: this.#consent === 'wait' ? 'no-answer' : 'decline' };
    if (this.#tickDecideOnMyOwn) this.#decidesOnItsOwn = true;
    return this.#allowed(false);
  }

  /** @param {boolean} onItsOwn */
  #allowed(onItsOwn) {
    return {
      decision: 'allow',
      onItsOwn,
      skills: this.#tickedSkills,
      models: null,
      available: { skills: WALLET_SKILLS, textModels: 1 },
    };
  }

  /** @param {CallRecord} call */
  #answerCall(call) {
    if (this.#failing.has(call.skill) || this.consents.paused.has(call.origin)) return { ok: false };
    const queued = this.#outputs.get(call.skill);
    const output = queued?.shift();
    if (output === undefined) return { default: true };
    if (output === FAILED) return { ok: false };
    call.output = output;
    return { ok: true, output };
  }
}

/** @type {WeakMap<object, number>} */
const frameIds = new WeakMap();
let nextFrameId = 1;

/**
 * A key per frame object, so that refs of two documents do not collide.
 *
 * @param {unknown} frame
 */
function frameKey(frame) {
  const object = /** @type {object} */ (frame);
  if (!frameIds.has(object)) frameIds.set(object, nextFrameId++);
  return frameIds.get(object);
}

/**
 * Throw TypeError unless `output` is something a call of `skill` can answer with.
 *
 * @param {string} skill
 * @param {unknown} output
 */
function checkOutput(skill, output) {
  if (output === FAILED) return;
  if (output === null || typeof output !== 'object') {
    throw new TypeError(`an output of ${skill} is an object such as { text: '...' } or FAILED; got ${JSON.stringify(output)}`);
  }
  const shape = Object.entries(SKILLS[skill]?.output ?? {});
  if (!shape.every(([name, type]) => typeof (/** @type {any} */ (output))[name] === type)) {
    const fields = shape.map(([name, type]) => `${name}: <${type}>`).join(', ');
    throw new TypeError(`an output of ${skill} is { ${fields} } (specs/byoa-sites.md); got ${JSON.stringify(output)}`);
  }
}
