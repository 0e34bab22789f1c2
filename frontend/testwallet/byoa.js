// @ts-check
/**
 * The test wallet's `window.byoa`: an in-page stand-in for the BYOA browser
 * extension and the agent wallet behind it, for CI and for trying a page by
 * hand. It is not an AI: every answer comes from the test, from the
 * developer's own model server or the site's scripted player (by hand, through
 * the site's relay), or from a fixed, labelled default.
 *
 * A classic script (no `import`/`export`): it runs as a Playwright init script
 * or as a plain `<script>` before the page's own scripts.
 *
 * It keeps the wallet's side of every rule in specs/byoa-sites.md:
 *
 * - `window.byoa` exists only on https pages and on http://localhost and
 *   http://127.0.0.1 (any port); `byoa:ready` is fired when it is defined.
 * - `request(manifest)` answers only when called with user activation (a
 *   click), unless the visitor chose "decide on my own" for the site. The
 *   manifest is checked by the rules of the `bringyourownagent` library
 *   (0.1-draft, M1-M21); an invalid one gets `null`.
 * - Every "no" is `null` (declined, blocked, no fitting model, no answer in
 *   120 s, no wallet running) and `{ ok: false }` for calls: a page cannot
 *   tell them apart.
 * - `call` checks the grant, the skill, the input and the manifest's limits
 *   (`maxClipSeconds` and the 15 s of the skill, measured from the WAV
 *   itself; `maxTextChars`; `maxCallsPerMinute`; `maxParallelCalls`;
 *   `maxCallSeconds`; `maxAnswerTokens` caps `params.maxTokens`).
 *
 * Who answers: when the page has the Playwright binding `__testwalletByoa`
 * (installed by `testwallet/extension.py`), the test plays the visitor and the
 * models and sees a log of everything. Without it, the stub works alone: the
 * consent is asked in the test wallet's panel in the page (panel.js, loaded
 * before this script; never a native dialog); with the site's test-wallet relay (relay.js)
 * `text.generate` is answered by the developer's model server (or the site's
 * scripted player), and `audio.transcribe` by their transcription server when
 * one is named. Otherwise `text.generate` echoes the prompt and
 * `audio.transcribe` asks the person in the panel what they said (it
 * hears nothing), answering "(test wallet) audio of N.N s" when they type nothing.
 *
 * Time is read from `Date.now()` and `setTimeout` at the moment of use, so a
 * test that installs Playwright's `page.clock` controls the 120 s consent
 * timeout, grant expiry and the per-minute window without waiting.
 */
(() => {
  'use strict';

  // -- The wallet 0.1 (specs/byoa-sites.md) ----------------------------------

  /** The Playwright binding through which the test answers. */
  const BINDING = '__testwalletByoa';
  /** "no answer in 120 seconds" is a "no". */
  const CONSENT_TIMEOUT_MS = 120_000;
  /** The window of maxCallsPerMinute (the library's RATE_WINDOW_MS). */
  const RATE_WINDOW_MS = 60_000;
  /** Calls in flight when the manifest sets no maxParallelCalls ("the wallet's default is 8"). */
  const DEFAULT_PARALLEL_CALLS = 8;
  /** How long a grant lasts unless the test says otherwise (not in the spec: our choice). */
  const DEFAULT_GRANT_SECONDS = 3600;
  /** The receipt of an answer that came from the test wallet. */
  const RECEIPT = Object.freeze({ cost: '0 USD', provider: 'testwallet' });

  // -- The manifest rules (frontend/testwallet/byoa-manifest.js) ---------------
  // A port of bringyourownagent's validate_manifest, loaded before this script; taken
  // now and removed, so no page script can reach or replace it.
  /**
   * @type {{
   *   validateManifest: (manifest: unknown) => ValidationResult,
   *   isObject: (value: unknown) => value is Record<string, any>,
   *   field: (object: Record<string, any>, key: string) => any,
   *   presentKeys: (object: Record<string, any>) => string[],
   * } | undefined}
   */
  const RULES = Reflect.get(window, '__testwalletByoaManifest');
  if (!RULES) throw new Error('testwallet byoa: load byoa-manifest.js before byoa.js');
  delete (/** @type {any} */ (window)).__testwalletByoaManifest;
  const { validateManifest, isObject, field, presentKeys } = RULES;

  // -- A call's checks (frontend/testwallet/byoa-checks.js) -----------------------
  // The skill's input and params, the declared languages and the manifest's limits; loaded
  // right before this script, after the clip and the manifest rules; taken and removed the same way.
  /**
   * @type {{ limit: (manifest: Record<string, any>, name: string) => number | undefined,
   *   checkInput: (skill: string, declared: Skill, input: Record<string, any>, params: Record<string, any>,
   *     state: GrantState) => { refused: string } | { summary: Record<string, any>, params: Record<string, any> } }
   *   | undefined}
   */
  const CHECKS = Reflect.get(window, '__testwalletByoaChecks');
  if (!CHECKS) throw new Error('testwallet byoa: load byoa-checks.js right before byoa.js');
  delete (/** @type {any} */ (window)).__testwalletByoaChecks;
  const { limit, checkInput } = CHECKS;

  // -- What a consent shows (frontend/testwallet/byoa-consent.js) ------------------------
  // All a site asks, or only what it asks for more than the person allowed it; loaded after the
  // skill table and the manifest rules, taken and removed the same way.
  /**
   * @type {{ consentQuestion: (host: string, manifest: Record<string, any>,
   *   allowed: { manifest: Record<string, any>, skills: string[] } | null,
   *   relay: { scripted: boolean, transcribes: boolean } | null) => object } | undefined}
   */
  const CONSENT = Reflect.get(window, '__testwalletByoaConsent');
  if (!CONSENT) throw new Error('testwallet byoa: load byoa-consent.js before byoa.js');
  delete (/** @type {any} */ (window)).__testwalletByoaConsent;
  const { consentQuestion } = CONSENT;

  // -- The skills (frontend/testwallet/skills.json, through byoa-skills.js) ---------
  // The one table of the skills the wallet serves, their input, params, output and default
  // answer; loaded right before this script and taken the same way.
  /**
   * @typedef {{ input: 'audio' | 'messages', params: Record<string, string>, output: Record<string, string>,
   *   default: string, does: string, maxClipSeconds?: number, models?: boolean, mime?: string,
   *   wav?: { format: number, channels: number, rate: number, bits: number } }} Skill
   * @type {Record<string, Skill> | undefined}
   */
  const TABLE = Reflect.get(window, '__testwalletByoaSkills');
  if (!TABLE) throw new Error('testwallet byoa: load byoa-skills.js before byoa.js');
  const SKILLS = TABLE;
  delete (/** @type {any} */ (window)).__testwalletByoaSkills;
  /** The skills the wallet serves. */
  const WALLET_SKILLS = Object.keys(SKILLS);
  /**
   * The site's relay to a model (relay.js), when this page has one.
   * @type {{ scripted: boolean, transcribes: boolean,
   *   generate: (input: any, params: any) => Promise<string>, transcribe: (input: any, params: any) => Promise<string> } | null}
   */
  const RELAY = Reflect.get(window, '__testwalletRelay') ?? null;
  /**
   * The test wallet's panel in the page (panel.js), where the stub alone asks the person.
   * @type {{ ask: (question: object) => Promise<{ action: string, text: string }> } | null}
   */
  const PANEL = Reflect.get(window, '__testwalletPanel') ?? null;

  if (!servesOrigin(location) || 'byoa' in window) return;

  // -- Types -------------------------------------------------------------------

  /**
   * @typedef {{ code: string, path: string, message: string }} Issue
   * @typedef {{ ok: boolean, errors: Issue[], warnings: Issue[] }} ValidationResult
   * @typedef {{ grantId: string, skills: string[], expiresAt: string, models?: string[] }} Grant
   * @typedef {{ ok: true, output: Record<string, unknown>, receipt: Record<string, unknown> } | { ok: false }} CallResult
   *
   * What the wallet (the test, or the standalone visitor) answers to a request.
   * @typedef {object} WalletAnswer
   * @property {'allow'|'decline'|'block'|'no-answer'|'no-wallet'|'quiet'} decision
   *   `quiet`: no consent window was shown (no click, or an invalid manifest).
   * @property {boolean} [onItsOwn] the visitor chose "decide on my own": no window, no click needed
   * @property {string[] | null} [skills] the skills the visitor ticked (null: all offered)
   * @property {number | null} [models] how many text models the visitor ticked (null: as many as asked)
   * @property {{ skills: string[], textModels: number }} [available] what the visitor's wallet can run
   * @property {number} [expiresInSeconds]
   *
   * What the test answers to a call.
   * @typedef {{ ok: true, output: Record<string, unknown>, receipt?: Record<string, unknown> } | { ok: false } | { default: true }} ModelAnswer
   *
   * @typedef {object} GrantState
   * @property {Grant} grant
   * @property {Record<string, any>} manifest
   * @property {number} expiresAtMs
   */

  // -- Sites, grants, limits ----------------------------------------------------

  /**
   * Whether the extension serves this page: https, or http on localhost / 127.0.0.1.
   * @param {Location} where
   */
  function servesOrigin(where) {
    if (where.protocol === 'https:') return true;
    return where.protocol === 'http:' && (where.hostname === 'localhost' || where.hostname === '127.0.0.1');
  }

  /** @type {Map<string, GrantState>} */
  const grants = new Map();
  /** Times (ms) of the calls that went to a model, for maxCallsPerMinute. @type {number[]} */
  let callTimes = [];
  let inFlight = 0;
  let nextRef = 1;
  /**
   * What the person allowed this site in the panel while the page is open (the stub alone; a test
   * keeps its own record): its next consent shows only what the site asks for more.
   * @type {{ manifest: Record<string, any>, skills: string[] } | null}
   */
  let allowedHere = null;

  /**
   * The grant the visitor's answer gives for this manifest, or null when the
   * wallet cannot serve a required skill ("no fitting model") or nothing is left.
   * @param {Record<string, any>} manifest
   * @param {WalletAnswer} answer
   * @returns {Grant | null}
   */
  function grantFor(manifest, answer) {
    const available = answer.available ?? { skills: WALLET_SKILLS, textModels: 1 };
    /** @type {string[]} */ const skills = [];
    /** @type {string[] | undefined} */ let models;
    for (const skill of presentKeys(manifest.skills)) {
      const entry = manifest.skills[skill];
      const required = entry.required === true;
      const ticked = answer.skills == null || answer.skills.includes(skill);
      let serves = WALLET_SKILLS.includes(skill) && available.skills.includes(skill);
      /** @type {number | undefined} */ let count;
      if (serves && SKILLS[skill].models) {
        // specs/byoa-sites.md: a "models" block asks for several models; the grant lists them as m1, m2...
        const asked = isObject(entry.models) && Number.isInteger(entry.models.count) && entry.models.count >= 1
          ? entry.models.count : null;
        const need = asked ?? 1;
        const have = Math.min(available.textModels, answer.models ?? need);
        const enough = asked !== null && entry.models.need === 'required' ? have >= need : have >= 1;
        serves = enough;
        if (asked !== null) count = Math.min(have, need);
      }
      if (required && !(serves && ticked)) return null;
      if (serves && ticked) {
        skills.push(skill);
        if (count !== undefined) models = Array.from({ length: count }, (_, i) => `m${i + 1}`);
      }
    }
    if (skills.length === 0) return null;
    const seconds = answer.expiresInSeconds ?? DEFAULT_GRANT_SECONDS;
    /** @type {Grant} */
    const grant = { grantId: newGrantId(), skills, expiresAt: new Date(Date.now() + seconds * 1000).toISOString() };
    if (models) grant.models = models;
    return grant;
  }

  function newGrantId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `g-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  }

  /**
   * A JSON copy of a value the page handed over (what crossing to the
   * extension does), or undefined when it is not JSON.
   * @param {unknown} value
   * @returns {any}
   */
  function asJson(value) {
    try {
      const text = JSON.stringify(value);
      return text === undefined ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /**
   * Whether one more call fits in maxCallsPerMinute now (the library's rule C11:
   * calls in (now - 60 s, now]).
   * @param {Record<string, any>} manifest
   * @param {number} now
   */
  function withinRate(manifest, now) {
    callTimes = callTimes.filter((t) => now - RATE_WINDOW_MS < t && t <= now);
    const max = limit(manifest, 'maxCallsPerMinute');
    return max === undefined || callTimes.length < max;
  }

  // -- Who answers: the test through the binding, or the stub alone --------------

  /** @returns {((message: Record<string, unknown>) => Promise<any>) | null} */
  function binding() {
    const fn = /** @type {any} */ (window)[BINDING];
    return typeof fn === 'function' ? fn : null;
  }

  /**
   * Ask the wallet about a request. Never throws: a failure is a "no".
   * @param {Record<string, unknown>} message
   * @returns {Promise<WalletAnswer>}
   */
  async function askWallet(message) {
    const send = binding();
    if (send === null) return askVisitorHere(message);
    try {
      return await send(message);
    } catch (error) {
      console.error('testwallet byoa: the test failed to answer a request', error);
      return { decision: 'no-wallet' };
    }
  }

  /**
   * The standalone visitor: asked in the test wallet's panel after a click, nothing without one.
   * @param {Record<string, any>} message
   * @returns {Promise<WalletAnswer>}
   */
  async function askVisitorHere(message) {
    if (!message.activated || !message.valid) return { decision: 'quiet' };
    if (PANEL === null) {
      console.error('testwallet byoa: load panel.js before byoa.js to be asked; the request answers null');
      return { decision: 'no-wallet' };
    }
    const { action } = await PANEL.ask(consentQuestion(location.host, message.manifest, allowedHere, RELAY));
    return { decision: action === 'allow' ? 'allow' : 'decline' };
  }

  /**
   * Ask the model (the test) for a call's output. Never throws.
   * @param {Record<string, unknown>} message
   * @returns {Promise<ModelAnswer>}
   */
  async function askModel(message) {
    const send = binding();
    if (send === null) return { default: true };
    try {
      return await send(message);
    } catch (error) {
      console.error('testwallet byoa: the test failed to answer a call', error);
      return { ok: false };
    }
  }

  /**
   * Tell the test what the page received (for its log). Never throws.
   * @param {Record<string, unknown>} message
   */
  async function report(message) {
    const send = binding();
    if (send === null) return;
    try {
      await send(message);
    } catch (error) {
      console.error('testwallet byoa: the test failed to take a report', error);
    }
  }

  /**
   * The stub alone's answer: the site's relay when the page has one (null when it fails), else a
   * deterministic answer, labelled, never pretending to be an AI.
   * @param {string} skill
   * @param {Record<string, any>} input
   * @param {Record<string, any>} params
   * @param {Record<string, any>} summary
   * @returns {Promise<Record<string, unknown> | null>}
   */
  async function defaultOutput(skill, input, params, summary) {
    const kind = SKILLS[skill].input;
    const relayed = binding() === null && RELAY !== null && (kind === 'messages' || (kind === 'audio' && RELAY.transcribes));
    if (relayed) {
      try {
        const text = kind === 'messages' ? await RELAY.generate(input, params) : await RELAY.transcribe(input, params);
        return { text };
      } catch (error) {
        console.warn('testwallet byoa: the relay failed; the call answers { ok: false }:', String(error));
        return null;
      }
    }
    const labelled = labelledDefault(skill, input, summary);
    if (kind === 'audio' && binding() === null) {
      // Alone, a person is trying a voice page by hand: the stand-in cannot hear, so it asks.
      const said = await askWhatWasSaid(summary.audio.clipSeconds);
      return { text: said || labelled };
    }
    return { text: labelled };
  }

  /**
   * The skill's default answer from the table, with the clip's seconds or the prompt filled in.
   * @param {string} skill
   * @param {Record<string, any>} input
   * @param {Record<string, any>} summary
   */
  function labelledDefault(skill, input, summary) {
    const users = Array.isArray(input.messages) ? input.messages.filter((/** @type {any} */ m) => m.role === 'user') : [];
    const last = users.length ? users[users.length - 1] : input.messages?.[input.messages.length - 1];
    const values = /** @type {Record<string, string>} */ ({
      clipSeconds: summary.audio ? summary.audio.clipSeconds.toFixed(1) : '',
      prompt: last ? last.content : '',
    });
    return SKILLS[skill].default.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');
  }

  /**
   * Ask the person, in the test wallet's panel, what their clip says ('' when there is no panel
   * or they skip it).
   * @param {number} seconds
   * @returns {Promise<string>}
   */
  async function askWhatWasSaid(seconds) {
    if (PANEL === null) return '';
    const { action, text } = await PANEL.ask({
      title: 'What did you say?',
      lines: [`The BYOA stand-in is not a speech recogniser: it cannot hear your ${seconds.toFixed(1)} s clip.`],
      field: { label: 'Type what you said; the page gets it as the transcript' },
      actions: [{ label: 'Send to the page', value: 'send' }, { label: 'Skip', value: 'skip' }],
      cancel: 'skip',
    });
    return action === 'send' ? text : '';
  }

  /**
   * Resolve with `value`, or with `fallback` after `ms` on the page's clock.
   * @template T, F
   * @param {Promise<T>} promise
   * @param {number | undefined} ms
   * @param {F} fallback
   * @returns {Promise<T | F>}
   */
  function within(promise, ms, fallback) {
    if (ms === undefined) return promise;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(fallback), ms);
      promise.then((value) => { clearTimeout(timer); resolve(value); });
    });
  }

  /** @returns {Promise<never>} */
  function forever() {
    return new Promise(() => {});
  }

  // -- window.byoa -----------------------------------------------------------

  /**
   * Ask the visitor for the skills a manifest declares. Call it from a click
   * handler. Resolves with a grant, or null for every "no".
   * @param {unknown} manifest
   * @returns {Promise<Grant | null>}
   */
  async function request(manifest) {
    // Read before anything else: transient activation is a property of this moment.
    const activated = Boolean(navigator.userActivation && navigator.userActivation.isActive);
    const ref = nextRef++;
    const json = asJson(manifest);
    const validation = validateManifest(json);
    const valid = validation.ok;
    if (!valid) {
      // The page only ever sees null; its developer sees why here (stable codes, JSON Pointer paths).
      console.warn('testwallet byoa: the manifest is invalid, request() answers null:', validation.errors);
    }
    // The consent window stays open until the visitor answers or 120 s pass on the
    // page's clock; "no-answer" from the test is a visitor who never answers.
    /** @type {WalletAnswer} */
    const noAnswer = { decision: 'no-answer' };
    const deadline = within(forever(), CONSENT_TIMEOUT_MS, noAnswer);
    const answer = await Promise.race([
      askWallet({ type: 'request', ref, activated, manifest: json ?? null, valid, validation }),
      deadline,
    ]);
    const settled = answer.decision === 'no-answer' ? await deadline : answer;
    let grant = null;
    /** @type {string} */
    let reason = settled.decision;
    if (!valid) reason = 'manifest-invalid';
    else if (!activated && !settled.onItsOwn) reason = 'no-click';
    else if (settled.decision === 'allow') {
      grant = grantFor(json, settled);
      if (grant === null) reason = 'no-fitting-model';
    }
    if (grant) {
      grants.set(grant.grantId, { grant, manifest: json, expiresAtMs: Date.parse(grant.expiresAt) });
      if (binding() === null) allowedHere = { manifest: json, skills: [...grant.skills] };
      grant = Object.freeze({ ...grant, skills: Object.freeze([...grant.skills]), ...(grant.models ? { models: Object.freeze([...grant.models]) } : {}) });
    }
    await report({ type: 'request-done', ref, grant: grant ? asJson(grant) : null, reason: grant ? 'granted' : reason });
    return /** @type {Grant | null} */ (grant);
  }

  /**
   * Use a granted skill once. Resolves with { ok: true, output, receipt } or { ok: false }.
   * @param {string} grantId
   * @param {string} skill
   * @param {unknown} input
   * @param {unknown} [params]
   * @returns {Promise<CallResult>}
   */
  async function call(grantId, skill, input, params) {
    const ref = nextRef++;
    const now = Date.now();
    const state = typeof grantId === 'string' ? grants.get(grantId) : undefined;
    const jsonInput = asJson(input);
    const jsonParams = params == null ? {} : asJson(params);
    /**
     * @param {string} refused
     * @param {Record<string, unknown> | null} [summary]
     */
    const refuse = async (refused, summary = null) => {
      await report({ type: 'call', ref, grantId, skill, summary, params: jsonParams ?? null, refused });
      return /** @type {CallResult} */ ({ ok: false });
    };
    if (!state) return refuse('no-grant');
    if (now >= state.expiresAtMs) {
      grants.delete(grantId);
      return refuse('grant-expired');
    }
    if (typeof skill !== 'string' || !state.grant.skills.includes(skill)) return refuse('skill-not-granted');
    if (!isObject(jsonInput) || !isObject(jsonParams)) return refuse('input-invalid');
    const checked = checkInput(skill, SKILLS[skill], jsonInput, jsonParams, state);
    if ('refused' in checked) return refuse(checked.refused);
    const { summary } = checked;
    if (!withinRate(state.manifest, now)) return refuse('rate-exceeded', summary);
    const parallel = limit(state.manifest, 'maxParallelCalls');
    if (inFlight >= (parallel !== undefined && Number.isInteger(parallel) && parallel >= 1 ? parallel : DEFAULT_PARALLEL_CALLS)) {
      return refuse('too-many-in-flight', summary);
    }
    callTimes.push(now);
    inFlight += 1;
    let answer;
    try {
      const seconds = limit(state.manifest, 'maxCallSeconds');
      answer = await within(
        askModel({ type: 'call', ref, grantId, skill, summary, input: jsonInput, params: checked.params, refused: null }),
        seconds === undefined ? undefined : seconds * 1000,
        /** @type {ModelAnswer} */ ({ ok: false }),
      );
    } finally {
      inFlight -= 1;
    }
    /** @type {CallResult} */
    let result = { ok: false };
    if ('default' in answer) {
      const output = await defaultOutput(skill, jsonInput, checked.params, summary);
      if (output !== null) result = { ok: true, output, receipt: { ...RECEIPT } };
    } else if (answer.ok && isObject(answer.output) && typeof answer.output.text === 'string') {
      result = { ok: true, output: answer.output, receipt: isObject(answer.receipt) ? answer.receipt : { ...RECEIPT } };
    }
    if (!grants.has(grantId)) result = { ok: false }; // released while the call ran
    await report({ type: 'call-done', ref, ok: result.ok });
    return result;
  }

  /**
   * Give a grant back: later calls with it get { ok: false }.
   * @param {string} grantId
   * @returns {Promise<void>}
   */
  async function release(grantId) {
    const known = grants.delete(grantId);
    await report({ type: 'release', grantId, known });
  }

  Object.defineProperty(window, 'byoa', {
    value: Object.freeze({ request, call, release }),
    writable: false,
    configurable: false,
    enumerable: true,
  });
  window.dispatchEvent(new Event('byoa:ready'));
})();
