// How far V8 lets the old generation grow past what is alive before its next full collection. V8's own factor
// (up to 4×) suits neither of the exporter's two ways of making garbage. Read at every full collection, so it acts
// from where it is set; a --heap-growing-percent given to node wins over all of this.
import { setFlagsFromString } from 'node:v8';

const given = (): string => `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
const userSet = (): boolean => /--heap[-_]growing[-_]percent\b/.test(given());

let current: number | undefined;

function setGrowth(percent: number): void {
  if (percent === current || userSet()) return;
  current = percent;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * Commands that turn answers into garbage at a steady rate for minutes or hours (the backfill, the report):
 * 1,000 stations' month of backfill peaked near 150 MiB with V8's default, about 100 MiB with 20% growth and no
 * slower (docs/benchmarks.md).
 */
export function limitHeapGrowth(): void {
  setGrowth(20);
}

/** Station text above which a list counts as large here: about 4,400 stations. */
export const LARGE_TEXT_BYTES = 2_000_000;

/**
 * The exporter, for its station list. Each on-demand refresh leaves the previous list behind as garbage, about in
 * proportion to the list, while a full collection costs about what is alive (mostly code: some 20 MiB whatever the
 * list). A small list makes little garbage per refresh, so a tight 50% costs a full collection every few dozen
 * scrapes and held 1,000 stations at about 100 MiB instead of 115; a large list at 50% would pay one every scrape
 * or two (10,000 stations: a third more CPU per scrape), so it gets 150%, which still held 10,000 at 138–142 MiB
 * where V8's own factor let it reach 166–179 (docs/benchmarks.md).
 */
export function heapGrowthForText(textBytes: number): number {
  return textBytes > LARGE_TEXT_BYTES ? 150 : 50;
}

const MIB = 1024 * 1024;

/**
 * The young generation's cap (both semi-spaces together) for the exporter's list. A refresh of a small list
 * allocates a few MiB, and 4 MiB of young generation held 1,000 stations about 3 MiB lower than 8, for up to a
 * fifth more CPU per scrape in loaded runs; a large list keeps 8 (smaller semi-spaces once made 10,000 stations
 * 1.5-2× slower). Figures: docs/benchmarks.md.
 */
export function youngGenerationCapForText(textBytes: number): number {
  return (textBytes > LARGE_TEXT_BYTES ? 8 : 4) * MIB;
}

let youngCap = youngGenerationCapForText(0);

/** The exporter's young generation cap now; v8-settings.ts holds V8 to it after each collection. */
export const youngGenerationCap = (): number => youngCap;

export function fitHeapGrowth(textBytes: number): void {
  setGrowth(heapGrowthForText(textBytes));
  youngCap = youngGenerationCapForText(textBytes);
}
