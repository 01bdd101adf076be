// How far V8 lets the old generation grow past what is alive before its next full collection. V8's own factor
// (up to 4×) suits neither of the exporter's two ways of making garbage. Read at every full collection, so it acts
// from where it is set; a --heap-growing-percent given to node wins over all of this.
import { setFlagsFromString } from 'node:v8';

const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;

/** Whether node was started with V8's `--flag` (command line or NODE_OPTIONS, dashes or underscores): it rules. */
export const nodeFlagGiven = (flag: string): boolean =>
  new RegExp(`--${flag.replace(/-/g, '[-_]')}\\b`).test(given);

let current: number | undefined;
/** The station list's setting, and how many rounds of background work are under way. */
let fitted = 50;
let background = 0;

function setGrowth(percent: number): void {
  if (percent === current || nodeFlagGiven('heap-growing-percent')) return;
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
  fitted = heapGrowthForText(textBytes);
  setGrowth(background > 0 ? heapGrowthInBackground(fitted) : fitted);
  youngCap = youngGenerationCapForText(textBytes);
}

/** The slack while the record's round runs beside a small list (docs/benchmarks.md, record). */
const BACKGROUND_PERCENT = 10;

/**
 * The growth while background work runs beside the list: a record round turns CityAir's answers and the store's
 * into garbage for as long as a backfill would, and at a small list's 50% its 56,870 rows took the heap 30 MiB
 * above the exporter without it; at 10%, under 20. A large list keeps its own: a tighter heap would cost it a full
 * collection every scrape or two while the round runs. Pure.
 */
export function heapGrowthInBackground(listPercent: number): number {
  return listPercent > heapGrowthForText(0) ? listPercent : BACKGROUND_PERCENT;
}

/** Runs `work` with the background growth, and puts the list's back once no such work is left. */
export async function withBackgroundHeapGrowth<T>(work: () => Promise<T>): Promise<T> {
  background++;
  setGrowth(heapGrowthInBackground(fitted));
  try {
    return await work();
  } finally {
    background--;
    if (background === 0) setGrowth(fitted);
  }
}

/** The growth last set here (undefined while node's own flag rules): for tests. */
export const heapGrowthNow = (): number | undefined => current;
