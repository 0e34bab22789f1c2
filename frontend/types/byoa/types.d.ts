/**
 * `window.byoa`, added by the BYOA extension (or a test stand-in). Every answer is untrusted.
 */
export type ByoaProvider = {
    /**
     * Ask for a grant; null is "no".
     */
    request: (manifest: object) => Promise<unknown>;
    call: (grantId: string, skill: string, input: unknown, params?: unknown) => Promise<unknown>;
    /**
     * Give the grant back.
     */
    release: (grantId: string) => unknown;
};
/**
 * What `request` granted: its id, and the skills, text models and expiry when the wallet stated them.
 */
export type Grant = {
    grantId: string;
    skills?: string[] | undefined;
    /**
     * The granted text models by code (`m1`, `m2`...), for `params.model`.
     */
    models?: string[] | undefined;
    expiresAt?: string | undefined;
};
/**
 * A call's answer. `{ ok: false }` is the only "no"; `output` is user input (show it as text).
 */
export type CallResult = {
    ok: true;
    output: {
        [key: string]: unknown;
    };
    receipt?: {
        [key: string]: unknown;
    };
} | {
    ok: false;
};
/**
 * The only two things a page learns of a link.
 */
export type LinkOutcome = "connected" | "not-connected";
export type LinkOptions = {
    /**
     * The name of a manifest the server knows; the server's default if left out.
     */
    manifest?: string | undefined;
    /**
     * Where the page gets a code and a link (POST).
     */
    codeUrl?: string | undefined;
    /**
     * Where the page asks whether a wallet came (GET `?session=`).
     */
    waitUrl?: string | undefined;
    /**
     * How long to wait for the wallet (the visible countdown).
     */
    seconds?: number | undefined;
    /**
     * How often to ask `waitUrl`.
     */
    pollMs?: number | undefined;
    /**
     * Stops waiting: the outcome is then 'not-connected'.
     */
    signal?: AbortSignal | undefined;
    /**
     * Opens the link; call `startLink` from a click.
     */
    open?: ((link: string) => void) | undefined;
    /**
     * Show the link too (the browser's question may be closed).
     */
    onLink?: ((link: string) => void) | undefined;
    /**
     * The countdown, at least once a second.
     */
    onTick?: ((secondsLeft: number) => void) | undefined;
    /**
     * Where the page ends the pairing its link opened (POST).
     */
    disconnectUrl?: string | undefined;
    /**
     * Which wallet connected, and how to end it.
     */
    onConnected?: ((linked: LinkedWallet) => void) | undefined;
    /**
     * Why the link did not connect, for the
     * developer (the visitor sees only that it did not).
     */
    onFailure?: ((failed: LinkFailure) => void) | undefined;
    fetch?: typeof fetch | undefined;
};
/**
 * What connected after a link: show it, so a visitor who opened someone else's link sees it.
 */
export type LinkedWallet = {
    /**
     * The name the wallet's hello gave (its own words: show as text), or ''.
     */
    wallet: string;
    /**
     * Ends the pairing (revoked, connection closed); whether it did.
     */
    disconnect: () => Promise<boolean>;
};
/**
 * Why a link did not connect. The code request's reasons are the site's to fix (the console
 * says how): `csrf` (403), `rate-limited` (429, with `retryAfter` seconds), `endpoint-refused`
 * and `unknown-manifest` (the server's own message added), `server-error`, `network`,
 * `bad-answer`. The visitor's: `expired` (no wallet came with the code, or the visitor declined:
 * they look alike), `timeout` (the countdown ended), `aborted` (the page's signal).
 */
export type LinkFailure = {
    reason: "csrf" | "rate-limited" | "endpoint-refused" | "unknown-manifest" | "server-error" | "network" | "bad-answer" | "expired" | "timeout" | "aborted";
    /**
     * An English sentence for the developer; never the link or its code.
     */
    message: string;
    /**
     * The HTTP status of the code request, when it got one.
     */
    status?: number | undefined;
    /**
     * Seconds, from a 429's Retry-After.
     */
    retryAfter?: number | undefined;
};
/**
 * What ended a recording.
 */
export type StopReason = "button" | "silence" | "cap" | "abort";
/**
 * A recording as the `audio.transcribe` skill takes it.
 */
export type Clip = {
    /**
     * 16 kHz mono 16-bit PCM WAV (a fetch body as it is).
     */
    wav: Uint8Array<ArrayBuffer>;
    /**
     * The same clip as 16 kHz floats.
     */
    samples: Float32Array;
    /**
     * Its length, measured from the WAV (`wavInfo`), at most `maxSeconds`.
     */
    seconds: number;
    stoppedBy: StopReason;
};
export type Recording = {
    /**
     * The visitor's stop button.
     */
    stop: () => void;
    /**
     * Settles once the microphone is released.
     */
    done: Promise<Clip>;
};
export type RecordOptions = {
    /**
     * The cap (the skill takes up to 15 s); the clip is cut there.
     */
    maxSeconds?: number | undefined;
    /**
     * Stop after this much silence that follows speech.
     */
    silenceSeconds?: number | undefined;
    /**
     * 0..1, about 40 times a second, for a level meter.
     */
    onLevel?: ((level: number) => void) | undefined;
    /**
     * Whole seconds left before the cap.
     */
    onTick?: ((secondsLeft: number) => void) | undefined;
    /**
     * Ends the recording (`stoppedBy: 'abort'`).
     */
    signal?: AbortSignal | undefined;
    /**
     * Added to the microphone's constraints.
     */
    constraints?: MediaTrackConstraints | undefined;
};
