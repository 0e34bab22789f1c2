// @ts-check
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { CallLimiter } from '../../byoa/ratelimit.js';

/** A clock the test moves. */
function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('CallLimiter', () => {
  it('should let maxPerMinute calls through at once', () => {
    const limiter = new CallLimiter(3, clock().now);
    assert.deepEqual([limiter.take(), limiter.take(), limiter.take()], [0, 0, 0]);
  });

  it('should refuse the next call with the ms until the oldest leaves the minute', () => {
    const time = clock();
    const limiter = new CallLimiter(2, time.now);
    limiter.take();
    time.t += 10_000;
    limiter.take();
    time.t += 5_000;
    assert.equal(limiter.take(), 45_000);
  });

  it('should count nothing when it refuses', () => {
    const time = clock();
    const limiter = new CallLimiter(1, time.now);
    limiter.take();
    for (let i = 0; i < 5; i++) { time.t += 1000; limiter.take(); } // clicked fast, all refused
    time.t += 55_000; // 60 s after the one counted call
    assert.equal(limiter.take(), 0);
  });

  it('should free a slot exactly 60 s after a call, not before', () => {
    const time = clock();
    const limiter = new CallLimiter(1, time.now);
    limiter.take();
    time.t += 59_999;
    assert.equal(limiter.take(), 1);
    time.t += 1;
    assert.equal(limiter.take(), 0);
  });

  it('should allow 40 calls in any minute for the geography manifest, never 41', () => {
    const time = clock();
    const limiter = new CallLimiter(40, time.now);
    let granted = 0;
    /** @type {number[]} */
    const grantedAt = [];
    for (let ms = 0; ms < 180_000; ms += 500) {
      time.t = 1_000_000 + ms;
      if (limiter.take() === 0) { granted++; grantedAt.push(ms); }
    }
    for (const start of grantedAt) assert.ok(grantedAt.filter((t) => t >= start && t < start + 60_000).length <= 40);
    assert.equal(granted, 120);
  });

  it('should refuse a limit that is not a whole number of 1 or more', () => {
    for (const bad of [0, -1, 1.5, NaN, /** @type {any} */ ('40')]) {
      assert.throws(() => new CallLimiter(bad), /maxPerMinute must be a whole number of 1 or more/);
    }
  });

  it('should read Date.now by default', () => {
    assert.equal(new CallLimiter(1).take(), 0);
  });
});
