import { describe, expect, it } from 'vitest';
import { createPace } from '../../src/upstream/pace.js';

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // CPU work that keeps the event loop from its turn
  }
};

describe('createPace', () => {
  it('is due once a slice of CPU time is used, and a pause starts a new slice', async () => {
    const pace = createPace(new AbortController().signal, 200);
    expect(pace.due()).toBe(false);
    busy(210);
    expect(pace.due()).toBe(true);
    expect(await pace.pause()).toBe(true);
    expect(pace.due()).toBe(false);
  });

  it('lets a waiting timer run during a pause', async () => {
    const pace = createPace(new AbortController().signal);
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await pace.pause();
    expect(ran).toBe(true);
  });

  it('tells the work to stop when the deadline passed meanwhile', async () => {
    const deadline = new AbortController();
    const pace = createPace(deadline.signal);
    setImmediate(() => deadline.abort());
    expect(await pace.pause()).toBe(false);
  });
});
