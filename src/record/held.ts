// What the store holds of each station, asked in two steps so that a round costs a few queries when nothing is
// missing: one range query per batch of stations gives the last row date of every step (a row held for a step or
// longer shows); then, only around the spans that look missing, the raw samples give every row date held there.
// A row the first step passed over looks like a gap and is found by the second, so what is written never
// repeats a row the store holds.
import { READING_METRICS } from '../readings/metrics.js';
import { type Labels, type Store, selectorOf } from '../report/store.js';
import { rowDates, type Span } from './gaps.js';

/**
 * Stations per range query: 48 hours of 5-minute steps for 5 stations is an answer of about 80 kB, parsed and
 * dropped within the young generation; 20 or 50 stations made the old generation grow by 20 to 60 MiB
 * (docs/benchmarks.md, record).
 */
export const STATIONS_PER_QUERY = 5;

const NAME = READING_METRICS.timestamp.name;

/** The timestamp series of the stations `ids` under the record's labels. */
export function selectorFor(ids: readonly number[], labels: readonly (readonly [string, string])[]): string {
  const base = selectorOf([NAME], labels);
  const id =
    ids.length === 1 ? `id=${JSON.stringify(String(ids[0]))}` : `id=~${JSON.stringify(ids.join('|'))}`;
  return `${base.slice(0, -1)},${id}}`;
}

/**
 * Row dates held per station, from the last value of every step of `stepMs` between fromMs and toMs, handed to
 * `visit` one batch of stations at a time (every station of `ids`, with no dates when nothing is held), so that
 * a round holds the answers of one batch at most.
 */
export async function eachHeld(
  store: Pick<Store, 'range'>,
  ids: readonly number[],
  labels: readonly (readonly [string, string])[],
  span: Span,
  stepMs: number,
  visit: (id: number, dates: readonly number[]) => void,
): Promise<void> {
  for (let i = 0; i < ids.length; i += STATIONS_PER_QUERY) {
    const batch = ids.slice(i, i + STATIONS_PER_QUERY);
    const expr = `last_over_time(${selectorFor(batch, labels)}[${stepMs}ms])`;
    const series = await store.range(expr, span.fromMs, span.toMs, stepMs);
    const values = new Map<number, number[]>();
    for (const s of series) {
      const id = idOf(s.labels);
      if (id === undefined) continue;
      const list = values.get(id) ?? [];
      // Consecutive steps mostly repeat a row: only changes are kept.
      for (const x of s.samples) if (list[list.length - 1] !== x.value) list.push(x.value);
      values.set(id, list);
    }
    for (const id of batch) visit(id, rowDates(values.get(id) ?? []));
  }
}

/**
 * Every row date held for one station among samples taken in (fromMs, toMs]: a row's sample is taken at its own
 * time (backfill, record) or when it was scraped, within max-age of it (live), so `toMs` is set that far past the
 * rows wanted.
 */
export async function heldExactly(
  store: Pick<Store, 'samples'>,
  id: number,
  labels: readonly (readonly [string, string])[],
  fromMs: number,
  toMs: number,
): Promise<number[]> {
  const series = await store.samples(selectorFor([id], labels), toMs, toMs - fromMs);
  return rowDates(series.flatMap((s) => s.samples.map((x) => x.value)));
}

function idOf(labels: Labels): number | undefined {
  const id = Number(labels.id);
  return Number.isSafeInteger(id) ? id : undefined;
}
