// Samples from the store back into the station's rows, each once. A backfilled row is one sample at the row's own
// time; a live row is the same value scraped again every scrape interval until the next row comes. Both carry the
// row's own time as the value of cityair_measurement_timestamp_seconds at the same instant (the same scrape, or the
// same backfilled row), so a concentration sample is keyed by that value: every scrape of one row lands on one
// key, and a backfilled row and its live scrapes too. A sample with no such partner (the timestamp series dropped
// by relabelling) cannot be told from a repeated scrape: no guess (equal values in a slot may be distinct rows or
// one row scraped again) gives the right number every time, so it is not counted, only tallied, and the reader
// marks the station incomplete.

export interface Sample {
  readonly atMs: number;
  readonly value: number;
}

/** A row as the station gave it: its own time and value. */
export interface Row {
  readonly atMs: number;
  readonly value: number;
}

export interface Unpaired {
  count: number;
  firstMs: number;
  lastMs: number;
}

/** The value a row holds and the sample time it came from: only a later sample replaces it. */
interface Held {
  value: number;
  sampleMs: number;
}

/** Rows gathered per substance, not yet handed on: a row may still be scraped again in the next chunk. */
export interface RowBuffer {
  readonly bySubstance: Map<string, Map<number, Held>>;
  /** Samples in the period without a row time, per substance: not counted. */
  readonly unpaired: Map<string, Unpaired>;
  /** Samples of the period's rows stored before the row's time or more than `lagMs` after it: not counted. */
  late: number;
}

export const newRowBuffer = (): RowBuffer => ({
  bySubstance: new Map(),
  unpaired: new Map(),
  late: 0,
});

/**
 * Adds one substance's samples; `rowTimeAt` gives the row time (ms) the timestamp series held at a sample's
 * instant. Rows outside [fromMs, toMs) are not the period's; those in `around` are kept too (for the station's
 * cadence only). A sample counts for its row only if stored no
 * earlier than the row's time and at most `lagMs` after it; any other is left out and tallied in `late`. This
 * rule looks at the sample alone, so the figures do not depend on how the period is cut into chunks. A sample
 * stored later than the one a row holds replaces its value, whatever series it came from (the API may revise a
 * recent row, and two exporters may scrape it); at the same sample time the higher value is kept, so the result
 * does not depend on the order of the series.
 */
export function addSamples(
  buffer: RowBuffer,
  substance: string,
  samples: readonly Sample[],
  rowTimeAt: (atMs: number) => number | undefined,
  period: { readonly fromMs: number; readonly toMs: number },
  lagMs: number,
  around: { readonly fromMs: number; readonly toMs: number } = period,
): void {
  let rows = buffer.bySubstance.get(substance);
  if (rows === undefined) {
    rows = new Map();
    buffer.bySubstance.set(substance, rows);
  }
  for (const sample of samples) {
    if (!Number.isFinite(sample.value)) continue;
    const atMs = rowTimeAt(sample.atMs);
    if (atMs === undefined) {
      if (sample.atMs >= period.fromMs && sample.atMs < period.toMs)
        tallyUnpaired(buffer, substance, sample.atMs);
      continue;
    }
    if (atMs < around.fromMs || atMs >= around.toMs) continue;
    if (sample.atMs < atMs || sample.atMs - atMs > lagMs) {
      if (atMs >= period.fromMs && atMs < period.toMs) buffer.late++;
      continue;
    }
    const held = rows.get(atMs);
    if (
      held === undefined ||
      sample.atMs > held.sampleMs ||
      (sample.atMs === held.sampleMs && sample.value > held.value)
    )
      rows.set(atMs, { value: sample.value, sampleMs: sample.atMs });
  }
}

function tallyUnpaired(buffer: RowBuffer, substance: string, atMs: number): void {
  const seen = buffer.unpaired.get(substance);
  if (seen === undefined) buffer.unpaired.set(substance, { count: 1, firstMs: atMs, lastMs: atMs });
  else {
    seen.count++;
    seen.firstMs = Math.min(seen.firstMs, atMs);
    seen.lastMs = Math.max(seen.lastMs, atMs);
  }
}

/**
 * Hands on, per substance in time order, the rows before `beforeMs`, and forgets them: called once every sample
 * that may count for them (stored at most the lag after the row's time) has been read.
 */
export function releaseRows(buffer: RowBuffer, beforeMs: number): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const [substance, rows] of buffer.bySubstance) {
    const ready: Row[] = [];
    for (const [atMs, { value }] of rows) {
      if (atMs >= beforeMs) continue;
      ready.push({ atMs, value });
      rows.delete(atMs);
    }
    ready.sort((a, b) => a.atMs - b.atMs);
    out.set(substance, ready);
  }
  return out;
}
