// The one worker pool: never more at once than asked, items taken in order, and a stop keeps every worker from
// taking another item.
import { describe, expect, it } from 'vitest';
import { forEachAtMost } from '../../src/runtime/pool.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('forEachAtMost', () => {
  it('runs at most `concurrency` pieces of work at once, taking items in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const taken = await forEachAtMost([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      for (let i = 0; i < n % 3; i++) await tick();
      running--;
    });
    expect(taken).toBe(7);
    expect(most).toBe(3);
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('counts a concurrency below 1 as 1, and runs nothing for no items', async () => {
    let most = 0;
    let running = 0;
    await forEachAtMost([1, 2, 3], 0, async () => {
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(most).toBe(1);
    expect(await forEachAtMost([], 4, async () => undefined)).toBe(0);
  });

  it('stops every worker before its next item once asked, and says how many items were taken', async () => {
    let stop = false;
    const seen: number[] = [];
    const taken = await forEachAtMost(
      [1, 2, 3, 4, 5, 6],
      2,
      async (n) => {
        seen.push(n);
        await tick();
        if (n === 2) stop = true;
      },
      () => stop,
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(taken).toBe(3);
  });
});
