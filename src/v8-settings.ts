// V8 settings the exporter applies to itself, so that `node dist/main.js` and the image need no flags.
// main.ts imports this module first: ES modules run in import order, so it acts before any dependency loads.
// Only flags that V8 reads while running take effect from here; flags given to node itself (command line or
// NODE_OPTIONS) win. Figures: docs/benchmarks.md.
//
// Young generation. V8 lets it grow to two 16 MiB semi-spaces, and an on-demand exporter allocates a parse tree
// per scrape, so it gets there: at 1,000 stations 32 MiB of young generation held about 1 MiB of live objects.
// --max-semi-space-size is read once, when the heap is created, and is ignored afterwards (measured: still
// 32 MiB). --semi-space-growth-factor is read each time the young generation grows, so the cap is held by setting
// it to 1 once the young generation has reached the cap. Node 22 and 24 keep to it too; Node 26 does not: its V8
// grows the young generation whatever the factor (27-58 MiB in the exporter, even with the factor at 1 from the
// start), so there only --max-semi-space-size given when node starts holds it, which the image sets (Dockerfile,
// docs/container.md "Node settings").
//
// The backfill command is the other way round: a stream of answers, each parsed, written and dropped, with a
// few requests waiting on the API meanwhile. In 8 MiB, about 0.9 MiB was promoted at every collection (what was
// in flight then), and collections took a quarter of its time; in 16 MiB about 12 KiB is, and 5%.
//
// undici parses HTTP with llhttp compiled to WebAssembly. After the first upstream request V8 recompiled that
// module with its optimising tier on background threads, and RSS jumped by about 35 MiB for some 50 ms: the
// process's peak at 1,000 stations. --liftoff-only keeps the baseline compiler's code (read when a module is
// compiled, which undici does at its first connection); no scrape got measurably slower.
//
// Old generation: how far it grows past what is alive follows the station list's size once one is read
// (runtime/heap-growth.ts); until then, the small list's setting. The backfill and report commands set their own.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { fitHeapGrowth, nodeFlagGiven, youngGenerationCap } from './runtime/heap-growth.js';

/**
 * Both semi-spaces together: the backfill's and the report's fixed, the exporter's following its list
 * (runtime/heap-growth.ts). Semi-spaces held at 1 MiB made 10,000 stations about 2× slower, at 2 MiB 1.5×.
 */
const COMMAND_YOUNG_CAP_BYTES: Readonly<Record<string, number>> = {
  backfill: 16 * 1024 * 1024,
  report: 8 * 1024 * 1024,
};
const commandCap = COMMAND_YOUNG_CAP_BYTES[process.argv[2] ?? ''];
const youngCap = (): number => commandCap ?? youngGenerationCap();

if (!nodeFlagGiven('liftoff-only') && !nodeFlagGiven('wasm-tier-up')) setFlagsFromString('--liftoff-only');
if (!nodeFlagGiven('max-semi-space-size') && !nodeFlagGiven('semi-space-growth-factor')) capYoungGeneration();
fitHeapGrowth(0);

function capYoungGeneration(): void {
  let frozen = false;
  const check = (): void => {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    const atCap = (young?.space_size ?? 0) >= youngCap();
    if (atCap === frozen) return;
    frozen = atCap;
    // Unfrozen again if V8 shrinks the young generation while idle, so it may grow back up to the cap.
    setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
  };
  check();
  // The young generation grows only inside a collection: looking after each one lets it overshoot the cap by one
  // step at most, and an idle exporter is never woken for it.
  new PerformanceObserver(check).observe({ entryTypes: ['gc'] });
}
