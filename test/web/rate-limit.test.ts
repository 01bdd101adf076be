import { describe, expect, it } from 'vitest';
import { createTokenBucket } from '../../src/web/rate-limit.js';

describe('token bucket', () => {
  it('allows a burst, then one request per interval', () => {
    let now = 0;
    const bucket = createTokenBucket(1000, 2, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
    now = 999;
    expect(bucket.take()).toBe(false);
    now = 1999;
    expect(bucket.take()).toBe(true);
    now = 60_000;
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
  });
});
