// @ts-check
/**
 * The manifest rules of the test wallet's `window.byoa` (frontend/testwallet/byoa.js), on their
 * own so the stub reads as the wallet's behaviour. A classic script, loaded right before byoa.js
 * (as an init script, or a plain `<script>`): it leaves its functions on
 * `window.__testwalletByoaManifest`, which byoa.js takes and removes before any page script runs.
 */
(() => {
  'use strict';

  /**
   * @typedef {{ code: string, path: string, message: string }} Issue
   * @typedef {{ ok: boolean, errors: Issue[], warnings: Issue[] }} ValidationResult
   */

  // A port of bringyourownagent 0.0.2 validate_manifest (spec/rules-0.1-draft.md,
  // M1-M21): the same codes, paths and messages, in the same order.
  // tests/testwallet/test_byoa_stub.py checks the two agree on a table of cases.

  const SUPPORTED_VERSIONS = ['0.1-draft'];
  const KNOWN_SKILLS = [
    'text.generate', 'text.understand', 'text.embed', 'audio.transcribe', 'audio.speak',
    'image.understand', 'image.generate', 'video.understand', 'video.generate',
  ];
  const PRIVACY_CLASSES = ['public', 'personal', 'personal-voice', 'sensitive', 'local-only'];
  const KNOWN_LIMITS = ['maxCallsPerMinute', 'maxClipSeconds', 'maxTextChars'];
  const COUNT_LIMITS = ['maxCallsPerMinute', 'maxTextChars'];
  const COST_PERIODS = ['perCall', 'perSession', 'perHour'];
  const TOP_LEVEL_FIELDS = ['byoa', 'purpose', 'skills', 'privacy', 'expectedCost'];
  const PURPOSE_FIELDS = ['summary', 'limits'];
  const SUMMARY_MAX_LENGTH = 200;
  const SKILL_ID_MAX_LENGTH = 64;
  const MAX_NUMBER = 9007199254740991;
  // Unicode White_Space, spelled out as the library does.
  const BLANK = /^[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;
  const SEGMENT = '[a-z][a-z0-9]*(?:-[a-z0-9]+)*';
  const SKILL_ID = new RegExp(`^${SEGMENT}\\.${SEGMENT}$`);
  const MONEY = /^(0|[1-9][0-9]{0,11})(?:\.([0-9]{1,6}))? ([A-Z]{3})$/;

  /**
   * Check a manifest (a JSON value) against the 0.1-draft rules.
   * @param {unknown} manifest
   * @returns {ValidationResult}
   */
  function validateManifest(manifest) {
    /** @type {Issue[]} */ const errors = [];
    /** @type {Issue[]} */ const warnings = [];
    /** @type {(code: string, path: string, message: string) => void} */
    const error = (code, path, message) => { errors.push({ code, path, message }); };
    /** @type {(code: string, path: string, message: string) => void} */
    const warn = (code, path, message) => { warnings.push({ code, path, message }); };

    // M1
    if (!isObject(manifest)) {
      error('manifest-not-object', '', 'the manifest must be a JSON object');
      return { ok: false, errors, warnings };
    }
    // M2, M3
    const version = field(manifest, 'byoa');
    const problem = versionProblem(version);
    if (problem !== null) error(version == null ? 'version-missing' : 'version-unsupported', '/byoa', problem);

    // M4-M9
    const purpose = field(manifest, 'purpose');
    if (!isObject(purpose)) error('purpose-missing', '/purpose', 'field "purpose" is missing or is not an object');
    else checkPurpose(purpose, error, warn);

    // M10-M15
    const skills = field(manifest, 'skills');
    if (!isObject(skills) || presentKeys(skills).length === 0) {
      error('skills-missing', '/skills', 'field "skills" must be an object with at least one skill');
    } else {
      checkSkills(skills, error, warn);
    }

    // M16, M17
    const privacy = field(manifest, 'privacy');
    const classes = PRIVACY_CLASSES.join(', ');
    if (privacy == null) {
      error('privacy-missing', '/privacy', `field "privacy" is missing; use one of: ${classes}`);
    } else if (!(typeof privacy === 'string' && PRIVACY_CLASSES.includes(privacy))) {
      error('privacy-unknown', '/privacy', `privacy class ${quote(privacy)} is unknown; use one of: ${classes}`);
    }

    // M18-M20
    const cost = field(manifest, 'expectedCost');
    if (cost == null) {
      warn('cost-missing', '/expectedCost',
        'field "expectedCost" is missing; visitors decide faster when they see an expected cost');
    } else if (!isObject(cost)) {
      error('cost-invalid', '/expectedCost', '"expectedCost" must be an object such as {"perSession": "0.06 USD"}');
    } else {
      const keys = presentKeys(cost);
      if (!keys.some((key) => COST_PERIODS.includes(key))) {
        warn('cost-missing', '/expectedCost', `"expectedCost" has none of: ${COST_PERIODS.join(', ')}`);
      }
      for (const key of keys) {
        const path = pointer('expectedCost', key);
        if (COST_PERIODS.includes(key)) {
          if (!isMoney(cost[key])) {
            error('cost-invalid', path, `"expectedCost.${key}" must be a money string such as "0.06 USD"`);
          }
        } else {
          warn('field-unknown', path, `unknown field ${quote(key)} in "expectedCost"; this version ignores it`);
        }
      }
    }

    // M21
    for (const key of presentKeys(manifest)) {
      if (!TOP_LEVEL_FIELDS.includes(key)) {
        warn('field-unknown', pointer(key), `unknown field ${quote(key)}; this version ignores it`);
      }
    }
    return { ok: errors.length === 0, errors, warnings };
  }

  /**
   * @param {Record<string, any>} purpose
   * @param {(code: string, path: string, message: string) => void} error
   * @param {(code: string, path: string, message: string) => void} warn
   */
  function checkPurpose(purpose, error, warn) {
    const summary = field(purpose, 'summary');
    if (typeof summary !== 'string' || BLANK.test(summary)) {
      error('summary-missing', '/purpose/summary',
        '"purpose.summary" must be a non-empty string: one short sentence for the visitor');
    } else if (codePoints(summary) > SUMMARY_MAX_LENGTH) {
      error('summary-too-long', '/purpose/summary',
        `"purpose.summary" has ${codePoints(summary)} characters; the limit is ${SUMMARY_MAX_LENGTH}`);
    }
    const limits = field(purpose, 'limits');
    if (limits != null) {
      if (!isObject(limits)) {
        error('limit-invalid', '/purpose/limits', '"purpose.limits" must be an object');
      } else {
        for (const name of presentKeys(limits)) {
          const path = pointer('purpose', 'limits', name);
          if (KNOWN_LIMITS.includes(name)) {
            const problem = limitProblem(name, limits[name]);
            if (problem !== null) error('limit-invalid', path, problem);
          } else {
            warn('limit-unknown', path, `unknown limit ${quote(name)}; wallets that do not know it will ignore it`);
          }
        }
      }
    }
    for (const key of presentKeys(purpose)) {
      if (!PURPOSE_FIELDS.includes(key)) {
        warn('field-unknown', pointer('purpose', key), `unknown field ${quote(key)} in "purpose"; this version ignores it`);
      }
    }
  }

  /**
   * @param {Record<string, any>} skills
   * @param {(code: string, path: string, message: string) => void} error
   * @param {(code: string, path: string, message: string) => void} warn
   */
  function checkSkills(skills, error, warn) {
    let anyRequired = false;
    for (const skillId of presentKeys(skills)) {
      const path = pointer('skills', skillId);
      if (!isSkillId(skillId)) {
        error('skill-id-invalid', path,
          `skill id ${quote(skillId)} must have the form domain.action in lower case, e.g. "audio.transcribe"`);
      } else if (!KNOWN_SKILLS.includes(skillId)) {
        warn('skill-unknown', path, `skill ${quote(skillId)} is not in the 0.1-draft vocabulary; check the spelling`);
      }
      const entry = skills[skillId];
      if (!isObject(entry)) {
        error('skill-invalid', path, `skill ${quote(skillId)} must be an object of parameters`);
        continue;
      }
      const required = field(entry, 'required');
      if (typeof required !== 'boolean') {
        error('skill-required-invalid', `${path}/required`, `skill ${quote(skillId)} must state "required": true or false`);
      } else if (required) {
        anyRequired = true;
      }
    }
    if (!anyRequired) {
      warn('no-required-skill', '/skills',
        'no skill is marked "required": true; the site claims to work without any of them');
    }
  }

  /**
   * Why a known limit value is invalid, or null.
   * @param {string} name
   * @param {unknown} value
   * @returns {string | null}
   */
  function limitProblem(name, value) {
    if (COUNT_LIMITS.includes(name)) {
      if (!isCount(value)) return `limit ${quote(name)} must be a whole number from 0 to ${MAX_NUMBER}`;
    } else if (!isNonNegative(value)) {
      return `limit ${quote(name)} must be a number from 0 to ${MAX_NUMBER}`;
    }
    return null;
  }

  /**
   * @param {unknown} value
   * @returns {string | null}
   */
  function versionProblem(value) {
    if (value == null) return 'field "byoa" is missing; it names the protocol version, e.g. "0.1-draft"';
    if (!(typeof value === 'string' && SUPPORTED_VERSIONS.includes(value))) {
      return `protocol version ${quote(value)} is not supported; supported: ${SUPPORTED_VERSIONS.map(quote).join(', ')}`;
    }
    return null;
  }

  /**
   * A JSON object (not an array, not null).
   * @param {unknown} value
   * @returns {value is Record<string, any>}
   */
  function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  /**
   * An own field of a JSON object; never something inherited such as "constructor".
   * @param {Record<string, any>} object
   * @param {string} key
   * @returns {any}
   */
  function field(object, key) {
    return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
  }

  /** @param {unknown} value */
  function isNonNegative(value) {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_NUMBER;
  }

  /** A whole number from 0 to MAX_NUMBER (20.0 is whole: JSON has one number type). @param {unknown} value */
  function isCount(value) {
    return isNonNegative(value) && Number.isInteger(value);
  }

  /** @param {unknown} value */
  function isSkillId(value) {
    return typeof value === 'string' && value.length <= SKILL_ID_MAX_LENGTH && SKILL_ID.test(value);
  }

  /** @param {unknown} value */
  function isMoney(value) {
    return typeof value === 'string' && MONEY.test(value);
  }

  /** Length in Unicode code points, as Python's len(). @param {string} text */
  function codePoints(text) {
    return [...text].length;
  }

  /**
   * Keys whose value is not null, in Unicode code point order (a null field is absent).
   * @param {Record<string, any>} object
   * @returns {string[]}
   */
  function presentKeys(object) {
    return Object.keys(object).filter((key) => object[key] != null).sort(byCodePoint);
  }

  /**
   * Compare by code points, not by UTF-16 units (they differ above U+FFFF).
   * @param {string} a
   * @param {string} b
   */
  function byCodePoint(a, b) {
    const x = [...a];
    const y = [...b];
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
      const d = /** @type {number} */ (x[i].codePointAt(0)) - /** @type {number} */ (y[i].codePointAt(0));
      if (d !== 0) return d;
    }
    return x.length - y.length;
  }

  /**
   * A JSON Pointer (RFC 6901).
   * @param {...string} parts
   */
  function pointer(...parts) {
    return parts.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  }

  /**
   * A JSON value inside a message, spelled as Python's json.dumps(ensure_ascii=False).
   * @param {unknown} value
   * @returns {string}
   */
  function quote(value) {
    if (Array.isArray(value)) return `[${value.map(quote).join(', ')}]`;
    if (isObject(value)) {
      return `{${Object.keys(value).map((key) => `${JSON.stringify(key)}: ${quote(value[key])}`).join(', ')}}`;
    }
    return JSON.stringify(value);
  }

  Object.defineProperty(window, '__testwalletByoaManifest', {
    value: Object.freeze({ validateManifest, isObject, field, isNonNegative, codePoints, presentKeys }),
    configurable: true, // byoa.js removes it
  });
})();
