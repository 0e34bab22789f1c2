// @ts-check
/**
 * Fakes for the way chooser's tests: a `window.byoa` provider, a `LanguageModel` global and a
 * scripted way, each recording what it was asked.
 */

/** @typedef {import('../../ways/types.js').Way} Way */

/**
 * A `window.byoa` that grants `grant` (null: declines) and answers calls from `answers` in turn.
 *
 * @param {{ grant?: any, answers?: any[] }} [setup]
 */
export function fakeByoa({ grant = { grantId: 'g1', skills: ['text.generate'] }, answers = [] } = {}) {
  /** @type {{ grantId: string, skill: string, input: any, params: any }[]} */
  const calls = [];
  /** @type {string[]} */
  const released = [];
  const queue = [...answers];
  return {
    calls,
    released,
    request: async (/** @type {object} */ _manifest) => grant,
    /**
     * @param {string} grantId
     * @param {string} skill
     * @param {any} input
     * @param {any} params
     */
    call: async (grantId, skill, input, params) => {
      calls.push({ grantId, skill, input, params });
      const next = queue.shift() ?? { ok: false };
      return typeof next === 'function' ? next() : next;
    },
    release: (/** @type {string} */ grantId) => { released.push(grantId); },
  };
}

/**
 * A `LanguageModel` global in the shape of the Prompt API (builtin.js names the version).
 *
 * @param {{ availability?: string, pieces?: string[], constrained?: string, progress?: number[], failCreate?: boolean }} [setup]
 */
export function fakeLanguageModel({ availability = 'available', pieces = ['Is it ', 'an animal?'], constrained = '"yes"', progress = [], failCreate = false } = {}) {
  /** @type {any[]} */
  const created = [];
  /** @type {{ input: any, options: any, streaming: boolean }[]} */
  const prompts = [];
  /** @type {any[]} */
  const availabilityAsked = [];
  let destroyed = 0;
  return {
    created,
    prompts,
    availabilityAsked,
    get destroyed() { return destroyed; },
    availability: async (/** @type {any} */ options) => { availabilityAsked.push(options); return availability; },
    create: async (/** @type {any} */ options = {}) => {
      created.push(options);
      if (failCreate) throw new DOMException('The model could not be loaded', 'NotSupportedError');
      if (options.monitor) {
        const monitor = new EventTarget();
        options.monitor(monitor);
        for (const loaded of progress) monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
      }
      return {
        prompt: async (/** @type {any} */ input, /** @type {any} */ promptOptions) => {
          prompts.push({ input, options: promptOptions, streaming: false });
          return constrained;
        },
        promptStreaming: (/** @type {any} */ input, /** @type {any} */ promptOptions) => {
          prompts.push({ input, options: promptOptions, streaming: true });
          const queue = [...pieces];
          return new ReadableStream({
            pull(controller) {
              const next = queue.shift();
              if (next === undefined) controller.close(); else controller.enqueue(next);
            },
          });
        },
        destroy: () => { destroyed += 1; },
      };
    },
  };
}

/**
 * A way that is `status` after detection and answers from `answers` in turn (an Error throws).
 *
 * @param {import('../../ways/types.js').WayId} id
 * @param {{ status?: import('../../ways/types.js').WayStatus, answers?: any[], connects?: boolean, models?: string[] }} [setup]
 * @returns {Way & { asked: any[], connected: number }}
 */
export function scriptedWay(id, { status = 'offered', answers = [], connects = true, models = [] } = {}) {
  const queue = [...answers];
  /** @type {Way & { asked: any[], connected: number }} */
  const way = {
    id,
    label: `the ${id} way`,
    streams: false,
    status: 'absent',
    detail: '',
    models,
    asked: [],
    connected: 0,
    detect: async () => { way.status = status; return status; },
    connect: async () => {
      way.connected += 1;
      if (connects) way.status = 'ready';
      return connects;
    },
    generate: async (request) => {
      way.asked.push(request);
      const next = queue.shift() ?? null;
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return way;
}
