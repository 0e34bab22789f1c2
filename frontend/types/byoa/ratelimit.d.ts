/**
 * The manifest's `maxCallsPerMinute`, kept on the page too: the wallet answers a call over it
 * with `{ ok: false }`, which looks like any "no", so the page makes the visitor wait instead.
 * A call counts for 60 s after it is made, as in the wallet.
 */
export class CallLimiter {
    /**
     * @param {number} maxPerMinute
     * @param {() => number} [now] The clock, in ms.
     */
    constructor(maxPerMinute: number, now?: () => number);
    max: number;
    now: () => number;
    /**
     * Return 0 and count the call when there is room; else the ms to wait, counting nothing.
     *
     * @returns {number}
     */
    take(): number;
    #private;
}
