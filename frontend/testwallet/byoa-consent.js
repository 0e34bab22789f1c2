// @ts-check
/**
 * What the test wallet's consent shows (frontend/testwallet/byoa.js): what a manifest asks beyond
 * what the visitor allowed the site (specs/byoa-sites.md: "a site that asks for more later gets a
 * new consent showing only the difference"), in a developer's words for the log (as
 * testwallet/_consents.py words it) and in a visitor's for the panel (skills.json's `consent`).
 * A classic script, loaded after byoa-skills.js and byoa-manifest.js (it reads both and removes
 * neither): it leaves its functions on `window.__testwalletByoaConsent`, which byoa.js takes and
 * removes; the Node driver runs it in a context of its own (playwright/consents.js).
 */
(() => {
  'use strict';

  /** @type {{ isObject: (value: unknown) => value is Record<string, any>, presentKeys: (object: Record<string, any>) => string[] } | undefined} */
  const RULES = Reflect.get(window, '__testwalletByoaManifest');
  /** @type {Record<string, { input: string, consent?: string }> | undefined} */
  const TABLE = Reflect.get(window, '__testwalletByoaSkills');
  if (!RULES || !TABLE) throw new Error('testwallet byoa: load byoa-skills.js and byoa-manifest.js before byoa-consent.js');
  const { isObject, presentKeys } = RULES;
  const SKILLS = TABLE;

  /**
   * One thing a manifest asks for more: a skill not allowed, more models for a skill, or a limit
   * raised or left out (`value` null: no bound, which is looser than any).
   * @typedef {{ kind: 'skill', skill: string }
   *   | { kind: 'models', skill: string, count: number, allowed: number }
   *   | { kind: 'limit', name: string, value: number | null, allowed: number }} More
   */

  /** A limit in a visitor's words: with its bound, and with none. @type {Record<string, [(n: number) => string, string]>} */
  const LIMIT_WORDS = {
    maxCallsPerMinute: [(n) => `up to ${n} uses a minute`, 'no limit on uses a minute'],
    maxClipSeconds: [(n) => `clips up to ${n} seconds`, "no limit on a clip's length"],
    maxTextChars: [(n) => `texts up to ${n} characters`, "no limit on a text's length"],
  };

  /**
   * What `manifest` asks beyond the `allowed` manifest and the skills the visitor ticked (both
   * manifests valid), in testwallet/_consents.py's more_asked order.
   * @param {Record<string, any>} manifest
   * @param {Record<string, any>} allowed
   * @param {string[]} skills
   * @returns {More[]}
   */
  function moreAsked(manifest, allowed, skills) {
    /** @type {More[]} */
    const more = presentKeys(manifest.skills).filter((skill) => !skills.includes(skill))
      .map((skill) => ({ kind: 'skill', skill }));
    for (const skill of presentKeys(manifest.skills)) {
      const block = manifest.skills[skill].models;
      const was = isObject(allowed.skills[skill]) ? allowed.skills[skill].models : undefined;
      if (!isObject(block)) continue;
      const count = block.count ?? 1;
      if (!isObject(was) || count > (was.count ?? 1)) {
        more.push({ kind: 'models', skill, count, allowed: isObject(was) ? (was.count ?? 1) : 0 });
      }
    }
    const limits = isObject(manifest.purpose.limits) ? manifest.purpose.limits : {};
    const were = isObject(allowed.purpose.limits) ? allowed.purpose.limits : {};
    for (const name of presentKeys(were)) {
      if (limits[name] == null) more.push({ kind: 'limit', name, value: null, allowed: were[name] });
      else if (limits[name] > were[name]) more.push({ kind: 'limit', name, value: limits[name], allowed: were[name] });
    }
    return more;
  }

  /**
   * One thing asked for more, as the log says it (testwallet/_consents.py's words).
   * @param {More} item
   */
  function logText(item) {
    if (item.kind === 'skill') return `the skill ${item.skill}`;
    if (item.kind === 'models') return `${item.count} models for ${item.skill} (allowed ${item.allowed})`;
    return item.value === null ? `no ${item.name} (allowed ${item.allowed})` : `${item.name} ${item.value} (allowed ${item.allowed})`;
  }

  /**
   * What the AI will do with these skills, in a visitor's words: "listen to what you say and write it down and ...".
   * @param {string[]} skills
   */
  function doing(skills) {
    const words = skills.map((skill) => SKILLS[skill]?.consent ?? 'use a skill this test wallet does not have');
    return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words.join('');
  }

  /**
   * One thing asked for more, in a visitor's words; null for a model count of a skill asked for
   * the first time (its skill's line says it).
   * @param {More} item
   */
  function visitorText(item) {
    if (item.kind === 'skill') return `ask your AI to ${doing([item.skill])}`;
    if (item.kind === 'models') {
      return item.allowed === 0 ? null : `use ${item.count} AI models to ${doing([item.skill])} (you allowed ${item.allowed})`;
    }
    const [bounded, unbounded] = LIMIT_WORDS[item.name] ?? [(/** @type {number} */ n) => `${item.name} ${n}`, `no ${item.name}`];
    return `${item.value === null ? unbounded : bounded(item.value)} (you allowed ${item.allowed})`;
  }

  /**
   * Who answers the calls, as the consent panel says it: clips only for a site that asks for a
   * skill that takes audio (a text game has none to speak of).
   * @param {string[]} skills
   * @param {{ scripted: boolean, transcribes: boolean } | null} relay the site's relay (relay.js), if any
   */
  function answeredBy(skills, relay) {
    if (relay === null) return 'Answers will be fixed test texts.';
    const clips = skills.some((skill) => SKILLS[skill]?.input === 'audio');
    const texts = skills.some((skill) => SKILLS[skill]?.input !== 'audio');
    const hearing = relay.transcribes ? 'your own transcription server transcribes your clips' : 'it cannot hear, so it asks you what your clips say';
    if (!texts) return `${hearing.replace(/^\w/, (first) => first.toUpperCase())}.`;
    const writer = relay.scripted ? 'A scripted player (not an AI) writes the texts' : 'Your own model server writes the texts';
    return clips ? `${writer}; ${hearing}.` : `${writer}.`;
  }

  /**
   * The panel's consent for `manifest` from the site at `host`: all it asks when nothing was
   * allowed, else only what it asks for more. Always says it is a stand-in, not an AI.
   * @param {string} host
   * @param {Record<string, any>} manifest a valid manifest
   * @param {{ manifest: Record<string, any>, skills: string[] } | null} allowed what the person allowed the site
   * @param {{ scripted: boolean, transcribes: boolean } | null} relay
   */
  function consentQuestion(host, manifest, allowed, relay) {
    const standIn = 'The BYOA extension stand-in (not an AI).';
    const purpose = `The site says what for: ${manifest.purpose.summary}`;
    const actions = [{ label: 'Allow', value: 'allow' }, { label: 'Decline', value: 'decline' }];
    const skills = presentKeys(manifest.skills);
    if (allowed === null) {
      return { title: `Let ${host} ask your AI to ${doing(skills)}?`, lines: [standIn, purpose, answeredBy(skills, relay)], actions, cancel: 'decline' };
    }
    const more = moreAsked(manifest, allowed.manifest, allowed.skills);
    const added = more.flatMap((item) => (item.kind === 'skill' ? [item.skill] : []));
    const lines = more.length === 0
      ? ['It asks for nothing more than you allowed it.']
      : ['You allowed it before. Only what it asks for more:', ...more.flatMap((item) => visitorText(item) ?? []).map((text) => `• ${text}`)];
    return {
      title: more.length === 0 ? `Let ${host} use your AI again?` : `Let ${host} do more with your AI?`,
      lines: [standIn, ...lines, purpose, ...(added.length ? [answeredBy(added, relay)] : [])],
      actions,
      cancel: 'decline',
    };
  }

  Object.defineProperty(window, '__testwalletByoaConsent', {
    value: Object.freeze({ moreAsked, logText, consentQuestion }),
    configurable: true, // byoa.js removes it
  });
})();
