// V8 settings the exporter applies to itself, so that `node dist/main.js` and the image need no flags.
// main.ts imports this module first: ES modules run in import order, so it acts before any dependency loads.
//
// V8's defaults are sized for throughput on large machines: the young generation grows to two 16 MiB
// semi-spaces, and the old generation may double between full collections. An on-demand exporter allocates a
// whole parse tree per scrape, so both reach their ceilings, and RSS settles far above what is live: at 1,000
// stations 32 MiB of young generation held about 1 MiB of live objects (see docs/benchmarks.md).
//
// Only flags that V8 reads while running take effect from here. --max-semi-space-size is read once, when the
// heap is created, and is silently ignored afterwards (measured: the young generation still reached 32 MiB).
// --semi-space-growth-factor is read each time the young generation grows, so the cap is held by setting it to
// 1 once the young generation has reached the cap. --heap-growing-percent is read whenever a full collection
// sets the next old-generation limit. Flags given to node itself (command line or NODE_OPTIONS) win.
//
// undici parses HTTP with llhttp compiled to WebAssembly. After the first upstream request V8 recompiled that
// module with its optimising tier on background threads, and RSS jumped by about 35 MiB for some 50 ms: the
// process's peak, at any station count. --liftoff-only keeps the baseline compiler's code (read when a module is
// compiled, which undici does at its first connection); parsing one answer's headers and body chunks is not
// where the time goes.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Both semi-spaces together. 4 MiB halves cost no speed at 10,000 stations; 2 MiB ones did (about 1.5×). */
const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;
/** The old generation may grow 10% past what survived the last full collection, instead of up to 100%. */
const HEAP_GROWING_PERCENT = 10;
/** Growth happens inside a collection; checking this often lets it overshoot the cap by one step at most. */
const CHECK_EVERY_MS = 50;

const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
const userSet = (flag: string): boolean => new RegExp(`--${flag.replace(/-/g, '[-_]')}\\b`).test(given);

if (!userSet('liftoff-only') && !userSet('wasm-tier-up')) setFlagsFromString('--liftoff-only');
if (!userSet('heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
if (!userSet('max-semi-space-size') && !userSet('semi-space-growth-factor')) capYoungGeneration();

function capYoungGeneration(): void {
  let frozen = false;
  const check = (): void => {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    const atCap = (young?.space_size ?? 0) >= YOUNG_GENERATION_CAP_BYTES;
    if (atCap === frozen) return;
    frozen = atCap;
    // Unfrozen again if V8 shrinks the young generation while idle, so it may grow back up to the cap.
    setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
  };
  check();
  setInterval(check, CHECK_EVERY_MS).unref();
}
