// Commands that turn answers into garbage at a steady rate for minutes or hours (the backfill, the report) and
// V8, which lets the old generation grow well past what is alive between full collections: 1,000 stations' month
// of backfill peaked near 150 MiB with V8's default, about 100 MiB with 20% growth and no slower
// (docs/benchmarks.md). Read at every full collection, so it acts from where it is called; a
// --heap-growing-percent given to node wins.
import { setFlagsFromString } from 'node:v8';

export function limitHeapGrowth(): void {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (!/--heap[-_]growing[-_]percent\b/.test(given)) setFlagsFromString('--heap-growing-percent=20');
}
