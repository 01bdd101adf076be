// Frees the exposition texts of earlier refreshes before a large new one is allocated. V8 frees a Buffer's memory
// only when a full collection finds it dead, and it starts one for outside memory only after about 64 MiB more
// of it: at 100,000 stations two dead 45 MB texts were still held at the peak of a refresh (docs/benchmarks.md).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Below this, a full collection costs more time than the memory it returns is worth (measured at 10,000). */
export const COLLECT_ABOVE_BYTES = 16 * 1024 * 1024;

let fullCollection: (() => void) | undefined;

export function collectDeadBuffers(): void {
  if (fullCollection === undefined) {
    // gc() exists only in contexts made after the flag is set; the context is made once, on the first big text.
    setFlagsFromString('--expose-gc');
    fullCollection = runInNewContext('gc') as () => void;
  }
  fullCollection();
}
