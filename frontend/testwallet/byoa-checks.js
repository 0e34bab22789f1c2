// @ts-check
/**
 * How the test wallet's `window.byoa` (frontend/testwallet/byoa.js) checks one call before any
 * model sees it, by the rule book beside the skill table (skills.json: each skill's input, mime,
 * WAV format, clip limit and params; its `refusals`): the grant's model, the input, the params'
 * types, the languages the manifest declares and its number limits. The headless wallet reads
 * the same book (testwallet/_call_checks.py); tests/testwallet/test_call_checks.py compares them.
 *
 * A classic script, loaded after byoa-clip.js and byoa-manifest.js and right before byoa.js (as
 * an init script, or a plain `<script>`): it takes the clip's functions (and removes them) and
 * reads the manifest rules' (byoa.js removes those), then leaves its own on
 * `window.__testwalletByoaChecks`, which byoa.js takes and removes before any page script runs.
 */
(() => {
  'use strict';

  const RULES = Reflect.get(window, '__testwalletByoaManifest');
  const CLIP = Reflect.get(window, '__testwalletByoaClip');
  if (!RULES || !CLIP) throw new Error('testwallet byoa: load byoa-clip.js and byoa-manifest.js before byoa-checks.js');
  delete (/** @type {any} */ (window)).__testwalletByoaClip;
  /** @type {{ isObject: (value: unknown) => value is Record<string, any>, field: (object: Record<string, any>, key: string) => any,
   *   isNonNegative: (value: unknown) => boolean, codePoints: (text: string) => number }} */
  const { isObject, field, isNonNegative, codePoints } = RULES;
  /** @type {{ clipSeconds: (bytes: Uint8Array, wav: { format: number, channels: number, rate: number, bits: number }) => number | null, decodeBase64: (text: unknown) => Uint8Array | null }} */
  const { clipSeconds, decodeBase64 } = CLIP;

  /** Whether a value has a parameter type of the skill table. @type {Record<string, (value: unknown) => boolean>} */
  const PARAM_TYPES = {
    string: (value) => typeof value === 'string',
    positiveInteger: (value) => Number.isInteger(value) && /** @type {number} */ (value) >= 1,
    strings: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  };

  /**
   * A number limit of the manifest, or undefined when it sets none (or an invalid one).
   * @param {Record<string, any>} manifest
   * @param {string} name
   * @returns {number | undefined}
   */
  function limit(manifest, name) {
    const limits = field(manifest.purpose, 'limits');
    const value = isObject(limits) ? field(limits, name) : undefined;
    return isNonNegative(value) ? value : undefined;
  }

  /**
   * Check one call's input against its skill (a row of skills.json) and the grant's manifest.
   * Returns what was measured and the params as the model gets them, or the reason it is refused.
   * @param {string} skill
   * @param {{ input: string, params: Record<string, string>, maxClipSeconds?: number, mime?: string,
   *   wav?: { format: number, channels: number, rate: number, bits: number } }} declared
   * @param {Record<string, any>} input
   * @param {Record<string, any>} params
   * @param {{ manifest: Record<string, any>, grant: { models?: string[] } }} state
   * @returns {{ refused: string } | { summary: Record<string, any>, params: Record<string, any> }}
   */
  function checkInput(skill, declared, input, params, state) {
    const { manifest, grant } = state;
    if (params.model != null && !(grant.models ?? []).includes(params.model)) return { refused: 'model-not-granted' };
    /** @type {Record<string, unknown>} */
    let summary;
    if (declared.input === 'audio') {
      const audio = field(input, 'audio');
      if (!isObject(audio) || audio.mime !== declared.mime || !declared.wav) return { refused: 'audio-invalid' };
      const bytes = decodeBase64(audio.base64);
      const seconds = bytes === null ? null : clipSeconds(bytes, declared.wav);
      if (bytes === null || seconds === null) return { refused: 'audio-invalid' };
      summary = { audio: { mime: audio.mime, bytes: bytes.length, clipSeconds: seconds } };
      const most = declared.maxClipSeconds ?? Infinity;
      const max = Math.min(limit(manifest, 'maxClipSeconds') ?? most, most);
      if (seconds > max) return { refused: 'clip-too-long' };
    } else if (declared.input === 'messages') {
      const messages = field(input, 'messages');
      const fine = Array.isArray(messages) && messages.length > 0 && messages.every(
        (m) => isObject(m) && typeof m.role === 'string' && typeof m.content === 'string');
      if (!fine) return { refused: 'messages-invalid' };
      const textChars = messages.reduce((sum, m) => sum + codePoints(m.content), 0);
      const maxText = limit(manifest, 'maxTextChars');
      if (maxText !== undefined && textChars > maxText) return { refused: 'text-too-long' };
      summary = { messages: messages.length, textChars };
    } else {
      return { refused: 'skill-not-served' };
    }
    for (const [name, type] of Object.entries(declared.params)) {
      if (params[name] != null && !PARAM_TYPES[type]?.(params[name])) return { refused: 'params-invalid' };
    }
    const languages = field(manifest.skills[skill], 'languages');
    if (declared.params.language && params.language != null && Array.isArray(languages) && !languages.includes(params.language)) {
      return { refused: 'language-not-declared' };
    }
    const cap = limit(manifest, 'maxAnswerTokens');
    if (declared.params.maxTokens && cap !== undefined && Number.isInteger(cap)) {
      params = { ...params, maxTokens: Math.min(params.maxTokens ?? cap, cap) };
    }
    return { summary, params };
  }

  Object.defineProperty(window, '__testwalletByoaChecks', {
    value: Object.freeze({ limit, checkInput }),
    configurable: true, // byoa.js removes it
  });
})();
