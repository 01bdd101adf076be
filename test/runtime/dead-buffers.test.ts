import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { COLLECT_ABOVE_BYTES, collectDeadBuffers } from '../../src/runtime/dead-buffers.js';

/** A large text nothing refers to any more, watched through a WeakRef. */
function droppedText(): WeakRef<Buffer> {
  return new WeakRef(Buffer.alloc(COLLECT_ABOVE_BYTES, 'x'));
}

describe('collectDeadBuffers', () => {
  it('frees a dead text at once, without waiting for V8 to choose to', async () => {
    const text = droppedText();
    // A WeakRef holds its target until the end of the job that made it, or that last read it.
    await nextTurn();
    collectDeadBuffers();
    expect(text.deref() === undefined).toBe(true);
  });

  it('can be called again and again', async () => {
    for (let i = 0; i < 3; i++) {
      const text = droppedText();
      await nextTurn();
      collectDeadBuffers();
      expect(text.deref() === undefined).toBe(true);
    }
  });
});
