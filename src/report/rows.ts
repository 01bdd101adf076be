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

/** Rows gathered per substance, not yet handed on: a row may still be scraped again in the next chunk. */
export interface RowBuffer {
  /** Rows before this time have been handed on; a later sample of one is dropped (counted in `late`). */
  releasedBeforeMs: number;
  readonly bySubstance: Map<string, Map<number, number>>;
  /** Samples in the period without a row time, per substance: not counted. */
  readonly unpaired: Map<string, Unpaired>;
  late: number;
}

export const newRowBuffer = (fromMs: number): RowBuffer => ({
  releasedBeforeMs: fromMs,
  bySubstance: new Map(),
  unpaired: new Map(),
  late: 0,
});

/**
 * Adds one substance's samples; `rowTimeAt` gives the row time (ms) the timestamp series held at a sample's
 * instant. Rows outside [fromMs, toMs) are not the period's. A later scrape of a row replaces its value: the API
 * may revise a recent row.
 */
export function addSamples(
  buffer: RowBuffer,
  substance: string,
  samples: readonly Sample[],
  rowTimeAt: (atMs: number) => number | undefined,
  period: { readonly fromMs: number; readonly toMs: number },
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
    if (atMs < period.fromMs || atMs >= period.toMs) continue;
    if (atMs < buffer.releasedBeforeMs) {
      if (rows.get(atMs) === undefined) buffer.late++;
      continue;
    }
    rows.set(atMs, sample.value);
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

/** Hands on, per substance in time order, the rows before `beforeMs`, and forgets them. */
export function releaseRows(buffer: RowBuffer, beforeMs: number): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const [substance, rows] of buffer.bySubstance) {
    const ready: Row[] = [];
    for (const [atMs, value] of rows) {
      if (atMs >= beforeMs) continue;
      ready.push({ atMs, value });
      rows.delete(atMs);
    }
    ready.sort((a, b) => a.atMs - b.atMs);
    out.set(substance, ready);
  }
  buffer.releasedBeforeMs = Math.max(buffer.releasedBeforeMs, beforeMs);
  return out;
}
