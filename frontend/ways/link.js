// @ts-check
/**
 * The BYOA direct link way (specs/byoa-sites.md, "Without the extension"): after a click the
 * visitor's wallet connects to the site's server, and the server calls it. The page never talks
 * to the wallet, so it supplies the two functions that talk to its own server: `pair` (the link
 * flow, e.g. `startLink` of frontend/byoa/link.js, then the granted models) and `generate` (ask
 * the server, e.g. over server-sent events). The way is offered in every browser: the wallet is
 * an app, which the page cannot detect before the visitor tries.
 */

/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').GenerateRequest} GenerateRequest */
/** @typedef {import('./types.js').Generated} Generated */
/** @typedef {import('./types.js').ConnectOptions} ConnectOptions */

/**
 * @typedef {object} LinkServer What the page's server does for the link way.
 * @property {(options: ConnectOptions) => Promise<{ models: string[] } | null>} pair From a click:
 *   open the link, wait for the wallet; the granted model codes, or `null` when it did not connect.
 * @property {(request: GenerateRequest & { model?: string }) => Promise<Generated | null>} generate
 *   The server calls the wallet; `null` when it could not (no wallet, a failed or timed-out call).
 * @property {() => Promise<{ models: string[] } | null>} [paired] Whether this browser session is
 *   already paired (after a reload), checked once when the page starts.
 * @property {boolean} [streams] Whether `generate` streams to `onText` (default true).
 */

/**
 * Return the direct link way over `server`.
 *
 * @param {LinkServer} server
 * @returns {Way}
 */
export function linkWay(server) {
  /** @type {Way} */
  const way = {
    id: 'link',
    // The visitor's words; the protocol's ("a BYOA wallet by link") are for the developer's panel.
    label: 'Your AI wallet app',
    streams: server.streams ?? true,
    status: 'offered',
    detail: '',
    models: [],
    async detect() {
      const paired = server.paired ? await server.paired().catch(() => null) : null;
      apply(paired);
      return way.status;
    },
    async connect(options = {}) {
      way.status = 'connecting';
      const paired = await server.pair(options).catch(() => null);
      apply(paired);
      return paired !== null;
    },
    async generate(request) {
      if (way.status !== 'ready') return null;
      const model = way.models.length > 0 ? request.model ?? way.models[0] : undefined;
      const { model: _asked, ...rest } = request;
      const answer = await server.generate(model ? { ...rest, model } : rest);
      // The wallet is gone when the server could not call it: offer the link again.
      if (answer === null) way.status = 'offered';
      return answer;
    },
  };

  /** @param {{ models: string[] } | null} paired */
  function apply(paired) {
    way.status = paired ? 'ready' : 'offered';
    way.models = paired && Array.isArray(paired.models) ? paired.models.filter((code) => typeof code === 'string') : [];
    way.detail = way.models.length > 1 ? `${way.models.length} models granted` : '';
  }
  return way;
}
