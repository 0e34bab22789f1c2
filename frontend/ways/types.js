// @ts-check
/**
 * The types of the way chooser (frontend/ways/): the ways a page can reach a model that writes
 * text for it, and the one request every way answers. JSDoc only; this module exports no values.
 *
 * Import them in JSDoc: `@typedef {import('../ways/types.js').GenerateRequest} GenerateRequest`.
 */

/**
 * @typedef {'aiwallet' | 'extension' | 'link' | 'builtin' | 'own'} WayId
 * The ways in, named as the chooser offers them (chooser.js, `WAY_ORDER`).
 */

/**
 * @typedef {'absent' | 'offered' | 'connecting' | 'ready'} WayStatus
 * - `absent`: not in this browser; never offered.
 * - `offered`: present, and needs the visitor's click to start (consent, a link, a download).
 * - `connecting`: started from a click; waiting for the visitor, the wallet or a download.
 * - `ready`: can generate text now.
 */

/**
 * @typedef {{ role: 'system' | 'user' | 'assistant', content: string }} TextMessage
 * One chat message of plain text: what `text.generate` takes (specs/byoa-sites.md).
 */

/**
 * @typedef {object} GenerateRequest
 * What a page asks of whichever way answers.
 * @property {TextMessage[]} messages The conversation, system prompt first.
 * @property {string[]} [choices] The answers allowed (`params.choices` of text.generate); ways
 *   without such a parameter get them as an instruction. The page still checks the answer.
 * @property {number} [maxTokens] The longest answer, in tokens.
 * @property {string} [model] A granted model code (`m1`, `m2`...), for ways with several models;
 *   absent: the way's first. Ways with one model ignore it.
 * @property {AbortSignal} [signal] Aborting it stops the generation; the promise rejects with its reason.
 * @property {(delta: string) => void} [onText] Each piece of text as it streams, where the way streams.
 * @property {(ms: number) => void} [onWait] The way must wait this long before it may call (the
 *   manifest's `maxCallsPerMinute`); it then calls by itself.
 * @property {object} [serverBody] For ways where the site's server calls the model (the BYOA link):
 *   what that server needs to build the prompt itself. Ways in the page ignore it.
 */

/**
 * @typedef {object} Generated
 * An answer. `text` is user input: render it as text, never as HTML.
 * @property {string} text
 * @property {string} [model] The model code or name that answered, when the way says.
 * @property {unknown} [data] Anything more the site's server answered (the BYOA link way).
 */

/**
 * @typedef {object} ConnectOptions
 * @property {AbortSignal} [signal]
 * @property {(fraction: number) => void} [onProgress] A model download's progress, 0 to 1.
 */

/**
 * @typedef {object} Way
 * One way in. Every method resolves; a "no" is `false` or `null`, never an error page.
 * @property {WayId} id
 * @property {string} label What the page calls it in the visitor's words ("AI Wallet", "Your AI in this browser"...); no protocol's name.
 * @property {boolean} streams Whether `onText` receives the answer as it is written.
 * @property {WayStatus} status
 * @property {string} detail Who answers or what it waits for, in plain words ('' when nothing to say).
 * @property {string[]} models The model codes granted (`m1`, `m2`...); empty for a way with one model.
 * @property {(changed: () => void) => Promise<WayStatus>} detect Find out whether the way is
 *   present; call `changed` whenever status, detail or models change later on their own.
 * @property {(options?: ConnectOptions) => Promise<boolean>} connect Start the way. Call it from a
 *   click handler: wallets answer only after one.
 * @property {(request: GenerateRequest) => Promise<Generated | null>} generate `null` is the
 *   way's "no" (declined, failed, not connected); an abort rejects with the signal's reason.
 */

export {};
