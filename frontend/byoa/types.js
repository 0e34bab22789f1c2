// @ts-check
/**
 * The types of the BYOA page library (specs/byoa-sites.md, "With the extension: window.byoa"),
 * written as JSDoc so that pages need no build step and `tsc --checkJs` still checks them.
 * Only JSDoc imports this module (`import('../byoa/types.js').Grant`): a browser never loads it.
 */

/**
 * @typedef {object} ByoaProvider
 * `window.byoa`, added by the BYOA extension (or a test stand-in). Every answer is untrusted.
 * @property {(manifest: object) => Promise<unknown>} request Ask for a grant; null is "no".
 * @property {(grantId: string, skill: string, input: unknown, params?: unknown) => Promise<unknown>} call
 * @property {(grantId: string) => unknown} release Give the grant back.
 */

/**
 * @typedef {object} Grant
 * What `request` granted: its id, and the skills, text models and expiry when the wallet stated them.
 * @property {string} grantId
 * @property {string[]} [skills]
 * @property {string[]} [models] The granted text models by code (`m1`, `m2`...), for `params.model`.
 * @property {string} [expiresAt]
 */

/**
 * @typedef {{ ok: true, output: { [key: string]: unknown }, receipt?: { [key: string]: unknown } } | { ok: false }} CallResult
 * A call's answer. `{ ok: false }` is the only "no"; `output` is user input (show it as text).
 */

/** @typedef {'connected' | 'not-connected'} LinkOutcome The only two things a page learns of a link. */

/**
 * @typedef {object} LinkOptions
 * @property {string} [manifest] The name of a manifest the server knows; the server's default if left out.
 * @property {string} [codeUrl] Where the page gets a code and a link (POST).
 * @property {string} [waitUrl] Where the page asks whether a wallet came (GET `?session=`).
 * @property {number} [seconds] How long to wait for the wallet (the visible countdown).
 * @property {number} [pollMs] How often to ask `waitUrl`.
 * @property {AbortSignal} [signal] Stops waiting: the outcome is then 'not-connected'.
 * @property {(link: string) => void} [open] Opens the link; call `startLink` from a click.
 * @property {(link: string) => void} [onLink] Show the link too (the browser's question may be closed).
 * @property {(secondsLeft: number) => void} [onTick] The countdown, at least once a second.
 * @property {string} [disconnectUrl] Where the page ends the pairing its link opened (POST).
 * @property {(linked: LinkedWallet) => void} [onConnected] Which wallet connected, and how to end it.
 * @property {(failed: LinkFailure) => void} [onFailure] Why the link did not connect, for the
 *   developer (the visitor sees only that it did not).
 * @property {typeof fetch} [fetch]
 */

/**
 * @typedef {object} LinkedWallet
 * What connected after a link: show it, so a visitor who opened someone else's link sees it.
 * @property {string} wallet The name the wallet's hello gave (its own words: show as text), or ''.
 * @property {() => Promise<boolean>} disconnect Ends the pairing (revoked, connection closed); whether it did.
 */

/**
 * @typedef {object} LinkFailure
 * Why a link did not connect. The code request's reasons are the site's to fix (the console
 * says how): `csrf` (403), `rate-limited` (429, with `retryAfter` seconds), `endpoint-refused`
 * and `unknown-manifest` (the server's own message added), `server-error`, `network`,
 * `bad-answer`. The visitor's: `expired` (no wallet came with the code, or the visitor declined:
 * they look alike), `timeout` (the countdown ended), `aborted` (the page's signal).
 * @property {'csrf' | 'rate-limited' | 'endpoint-refused' | 'unknown-manifest' | 'server-error'
 *   | 'network' | 'bad-answer' | 'expired' | 'timeout' | 'aborted'} reason
 * @property {string} message An English sentence for the developer; never the link or its code.
 * @property {number} [status] The HTTP status of the code request, when it got one.
 * @property {number} [retryAfter] Seconds, from a 429's Retry-After.
 */

/** @typedef {'button' | 'silence' | 'cap' | 'abort'} StopReason What ended a recording. */

/**
 * @typedef {object} Clip
 * A recording as the `audio.transcribe` skill takes it.
 * @property {Uint8Array<ArrayBuffer>} wav 16 kHz mono 16-bit PCM WAV (a fetch body as it is).
 * @property {Float32Array} samples The same clip as 16 kHz floats.
 * @property {number} seconds Its length, measured from the WAV (`wavInfo`), at most `maxSeconds`.
 * @property {StopReason} stoppedBy
 */

/**
 * @typedef {object} Recording
 * @property {() => void} stop The visitor's stop button.
 * @property {Promise<Clip>} done Settles once the microphone is released.
 */

/**
 * @typedef {object} RecordOptions
 * @property {number} [maxSeconds] The cap (the skill takes up to 15 s); the clip is cut there.
 * @property {number} [silenceSeconds] Stop after this much silence that follows speech.
 * @property {(level: number) => void} [onLevel] 0..1, about 40 times a second, for a level meter.
 * @property {(secondsLeft: number) => void} [onTick] Whole seconds left before the cap.
 * @property {AbortSignal} [signal] Ends the recording (`stoppedBy: 'abort'`).
 * @property {MediaTrackConstraints} [constraints] Added to the microphone's constraints.
 */

export {};
