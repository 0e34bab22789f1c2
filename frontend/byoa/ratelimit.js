// @ts-check

/**
 * The manifest's `maxCallsPerMinute`, kept on the page too: the wallet answers a call over it
 * with `{ ok: false }`, which looks like any "no", so the page makes the visitor wait instead.
 * A call counts for 60 s after it is made, as in the wallet.
 */
export class CallLimiter {
  /** @type {number[]} */
  #calls = [];

  /**
   * @param {number} maxPerMinute
   * @param {() => number} [now] The clock, in ms.
   */
  constructor(maxPerMinute, now = Date.now) {
    if (!Number.isInteger(maxPerMinute) || maxPerMinute < 1) {
      throw new RangeError(`CallLimiter: maxPerMinute must be a whole number of 1 or more, not ${maxPerMinute}`);
    }
    this.max = maxPerMinute;
    this.now = now;
  }

  /**
   * Return 0 and count the call when there is room; else the ms to wait, counting nothing.
   *
   * @returns {number}
   */
  take() {
    const now = this.now();
    this.#calls = this.#calls.filter((t) => t > now - 60_000);
    if (this.#calls.length >= this.max) return this.#calls[0] + 60_000 - now;
    this.#calls.push(now);
    return 0;
  }
}
