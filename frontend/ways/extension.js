// @ts-check
/**
 * The BYOA extension way: `window.byoa` (specs/byoa-sites.md, "With the extension"). The grant
 * comes from a click; `text.generate` takes `choices`, `maxTokens` and, with several granted
 * models, `model`. `null` from `request` and `{ok: false}` from `call` are the only "no".
 * The extension answers whole, so the way does not stream. The manifest's `maxCallsPerMinute` is
 * kept on the page too: the wallet answers a call over it with `{ok: false}`, which would read as a
 * "no", so a call over it waits (`onWait` says how long) instead.
 */

import { findByoa } from '../byoa/discovery.js';
import { abortable } from './messages.js';

/**
 * The calls and the page's rate limit, loaded once an extension is found (and fetched right
 * then, so that a click's `request` does not wait on the network): a browser without one never
 * loads them.
 */
const calling = () => Promise.all([import('../byoa/extension.js'), import('../byoa/ratelimit.js')]);

/** @typedef {import('./types.js').Way} Way */

/**
 * Return the extension way for a site whose manifest is `manifest` (the object, as shipped).
 *
 * @param {{ manifest: object, find?: () => Promise<any> }} options `find` discovers the
 *   provider (default: `findByoa()`, `window.byoa` or a `byoa:ready` event within 300 ms).
 * @returns {Way}
 */
export function extensionWay({ manifest, find = () => findByoa() }) {
  /** @type {any} */
  let provider = null;
  /** @type {string | null} */
  let grantId = null;
  /** @type {(() => void) | null} */
  let stopReleasing = null;
  const perMinute = /** @type {any} */ (manifest)?.purpose?.limits?.maxCallsPerMinute;
  /** @type {import('../byoa/ratelimit.js').CallLimiter | null} made with the calls, on the first connect */
  let limiter = null;

  /** @type {Way} */
  const way = {
    id: 'extension',
    // The visitor's words; the protocol's ("the BYOA extension") are for the developer's panel.
    label: 'Your AI in this browser',
    streams: false,
    status: 'absent',
    detail: '',
    models: [],
    async detect() {
      provider = await find();
      way.status = provider ? 'offered' : 'absent';
      if (provider) calling().catch(() => {}); // fetched now; a failure shows again on connect
      return way.status;
    },
    async connect() {
      if (!provider) return false;
      const [{ releaseOnPageHide, requestGrant }, { CallLimiter }] = await calling();
      if (!limiter && Number.isInteger(perMinute) && perMinute >= 1) limiter = new CallLimiter(perMinute);
      // requestGrant must run inside the click (the wallet shows nothing without one): the
      // modules above were fetched on detect, so this await is a settled promise's.
      const grant = await requestGrant(provider, manifest);
      if (!grant) {
        way.status = 'offered';
        return false;
      }
      stopReleasing?.();
      grantId = grant.grantId;
      stopReleasing = releaseOnPageHide(provider, grant.grantId);
      way.models = grant.models ?? [];
      way.detail = way.models.length > 1 ? `${way.models.length} models granted` : '';
      way.status = 'ready';
      return true;
    },
    async generate({ messages, choices, maxTokens, model, signal, onWait }) {
      if (!provider || !grantId) return null;
      for (let wait = limiter?.take() ?? 0; wait > 0; wait = limiter?.take() ?? 0) {
        onWait?.(wait);
        await abortable(new Promise((resolve) => setTimeout(resolve, wait)), signal);
      }
      /** @type {Record<string, unknown>} */
      const params = {};
      if (choices) params.choices = choices;
      if (maxTokens) params.maxTokens = maxTokens;
      if (way.models.length > 0) params.model = model ?? way.models[0];
      const [{ callSkill }] = await calling();
      const result = await abortable(callSkill(provider, grantId, 'text.generate', { messages }, params), signal);
      const text = result.ok ? result.output?.text : undefined;
      return typeof text === 'string' ? { text, ...(params.model ? { model: String(params.model) } : {}) } : null;
    },
  };
  return way;
}
