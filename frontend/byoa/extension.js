// @ts-check
/**
 * The extension's way in (specs/byoa-sites.md, "With the extension"). `null` from `request` and
 * `{ ok: false }` from `call` are the only "no"; a throw or a malformed answer becomes that "no",
 * so the page has one branch for all of them: its own way.
 */

/** @typedef {import('./types.js').ByoaProvider} ByoaProvider */

/**
 * Ask the wallet for a grant; resolve with it, or null for any "no". Call it from a click
 * handler: without one the wallet shows nothing and answers null.
 *
 * @param {ByoaProvider} provider `window.byoa`, from `findByoa`.
 * @param {object} manifest The site's manifest object.
 * @returns {Promise<import('./types.js').Grant | null>}
 */
export async function requestGrant(provider, manifest) {
  const answer = await settled(() => provider.request(manifest));
  if (!isObject(answer) || typeof answer.grantId !== 'string' || !answer.grantId) return null;
  const { grantId, skills, models, expiresAt } = answer;
  return {
    grantId,
    ...(Array.isArray(skills) && { skills: strings(skills) }),
    // The text models the visitor ticked, by code (m1, m2...): a call names one in params.model.
    ...(Array.isArray(models) && { models: strings(models) }),
    ...(typeof expiresAt === 'string' && { expiresAt }),
  };
}

/**
 * Call a skill under a grant; resolve with `{ ok: true, output, receipt? }` or `{ ok: false }`,
 * never reject. `output` is user input: show it as text, never as HTML.
 *
 * @param {ByoaProvider} provider
 * @param {string} grantId
 * @param {string} skill e.g. 'audio.transcribe'
 * @param {unknown} input e.g. `{ audio: { mime: 'audio/wav', base64 } }`
 * @param {unknown} [params] e.g. `{ language: 'sk' }`
 * @returns {Promise<import('./types.js').CallResult>}
 */
export async function callSkill(provider, grantId, skill, input, params) {
  const answer = await settled(() => provider.call(grantId, skill, input, params));
  if (!isObject(answer) || answer.ok !== true || !isObject(answer.output)) return { ok: false };
  return { ok: true, output: answer.output, ...(isObject(answer.receipt) && { receipt: answer.receipt }) };
}

/**
 * Release the grant when the visitor leaves the page; return a function that cancels this.
 *
 * @param {ByoaProvider} provider
 * @param {string} grantId
 * @returns {() => void}
 */
export function releaseOnPageHide(provider, grantId) {
  if (typeof window === 'undefined') return () => {};
  // The page is going away: a release that throws or rejects changes nothing for it.
  const release = () => void settled(() => provider.release(grantId));
  window.addEventListener('pagehide', release);
  return () => window.removeEventListener('pagehide', release);
}

/**
 * Resolve with what `call` returns or resolves with; null when it throws or rejects.
 *
 * @param {() => unknown} call
 */
async function settled(call) {
  try {
    return await call();
  } catch {
    return null;
  }
}

/** @param {unknown[]} values */
const strings = (values) => values.filter((value) => typeof value === 'string');

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
