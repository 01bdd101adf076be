// The period's figures from the store: the stations and their substances from the series lists, then each
// station's samples in chunks of time (grown or shrunk to keep an answer near a few MB), turned back into rows and
// folded into running sums. One station at a time: memory holds one chunk's answer and one station's sums.
import type { SeriesFigures } from './figures.js';
import { figuresOfRows, seriesFigures } from './figures.js';
import { type Gap, type GapReason, gapMessage } from './messages.js';
import { type NetworkFigures, networkFigures, type StationFigures } from './network.js';
import { addSamples, newRowBuffer, type Row, releaseRows } from './rows.js';
import {
  addRow,
  closeSeries,
  DAY_MS,
  HOUR_MS,
  newSeries,
  noteCadence,
  type Period,
  type SeriesState,
} from './series.js';
import { type Labels, type Store, selectorOf } from './store.js';

export type { Gap } from './messages.js';

export const CONCENTRATION = 'cityair_concentration_micrograms_per_cubic_meter';
export const ROW_TIME = 'cityair_measurement_timestamp_seconds';
export const STATION_INFO = 'cityair_station_info';

/**
 * A live row is scraped after its own time, again until the next comes: a sample counts for its row only if stored
 * at most this long after the row's time (rows.ts), so rows are handed on once this far behind the chunk, and
 * samples are read this far past --to, so that the last rows of the period, first scraped after --to, still count
 * (a daily row, stamped with the start of its day, is published the next day: 34 hours after its time). Rows are then kept by their own time.
 */
export const SCRAPE_LAG_MS = 2 * DAY_MS;
/**
 * Rows are read this far before --from too, for the station's cadence only: a station of daily rows with one row
 * in the period is known daily from its rows around it (those up to two days past --to are read anyway).
 */
export const CADENCE_MARGIN_MS = 2 * DAY_MS;
const FIRST_CHUNK_MS = DAY_MS;
const MAX_CHUNK_MS = 32 * DAY_MS;
const FEW_SAMPLES = 50_000;
const MANY_SAMPLES = 200_000;

export interface ReportRequest {
  readonly period: Period;
  /** The --label pairs: exact matchers on every series. */
  readonly matchers: readonly (readonly [string, string])[];
  readonly stations: readonly number[] | undefined;
}

export interface Report {
  readonly request: ReportRequest;
  readonly stations: readonly StationFigures[];
  readonly network: NetworkFigures;
  readonly gaps: readonly Gap[];
  /** Samples of the period's rows stored before the row's time or more than two days after it: not counted. */
  readonly lateSamples: number;
  readonly queries: number;
}

export interface Progress {
  readonly station: number;
  readonly stations: number;
  readonly doneMs: number;
}

export async function readReport(
  store: Store,
  request: ReportRequest,
  onProgress: (progress: Progress) => void = () => undefined,
): Promise<Report> {
  const { period } = request;
  const gaps: Gap[] = [];
  let listed: Map<string, Listed>;
  try {
    listed = await listStations(store, request);
  } catch (error) {
    gaps.push({ stationId: undefined, ...period, message: (error as Error).message });
    listed = new Map();
  }
  const stations: StationFigures[] = [];
  let late = 0;
  let index = 0;
  for (const [id, { name, substances }] of listed) {
    onProgress({ station: index, stations: listed.size, doneMs: period.fromMs });
    const read =
      substances.length === 0
        ? { series: [figuresOfRows('', [], period)], gaps: [], late: 0 }
        : await readStation(store, request, id, substances, (doneMs) =>
            onProgress({ station: index, stations: listed.size, doneMs }),
          );
    stations.push({ id, name, series: read.series });
    gaps.push(...read.gaps);
    late += read.late;
    index++;
  }
  if (!gaps.some((g) => g.stationId === undefined)) gaps.push(...unmatched(request, listed));
  return {
    request,
    stations,
    network: networkFigures(stations, period),
    gaps,
    lateSamples: late,
    queries: store.queries(),
  };
}

interface Listed {
  readonly name: string;
  readonly substances: readonly string[];
}

/**
 * Station ids with a concentration series in the period, in id order, with their names and substances: a
 * station whose readings the store then fails to give still has its rows in the report, marked incomplete. A
 * station asked for by --stations, or known from its info series, without readings is listed with no substance.
 */
async function listStations(store: Store, request: ReportRequest): Promise<Map<string, Listed>> {
  const { period, matchers } = request;
  const wanted = request.stations?.map(String);
  const chosen = (id: string | undefined): id is string =>
    !!id && (wanted === undefined || wanted.includes(id));
  const readToMs = period.toMs + SCRAPE_LAG_MS;
  const readings = await store.series(selectorOf([CONCENTRATION], matchers), period.fromMs, readToMs);
  const info = await store.series(selectorOf([STATION_INFO], matchers), period.fromMs, readToMs);
  const names = new Map<string, string>();
  const substances = new Map<string, Set<string>>((wanted ?? []).map((id) => [id, new Set()]));
  for (const labels of info)
    if (chosen(labels.id)) {
      if (labels.name) names.set(labels.id, labels.name);
      if (!substances.has(labels.id)) substances.set(labels.id, new Set());
    }
  for (const { id, substance } of readings)
    if (chosen(id) && substance) substances.set(id, (substances.get(id) ?? new Set()).add(substance));
  const ids = [...substances.keys()].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return new Map(
    ids.map((id) => [id, { name: names.get(id) ?? '', substances: [...(substances.get(id) ?? [])] }]),
  );
}

/** Gaps for a selection without readings: each station asked for that has none, and nothing matched at all. */
function unmatched(request: ReportRequest, listed: ReadonlyMap<string, Listed>): Gap[] {
  const { period } = request;
  const gaps: Gap[] = [];
  const bare = ([, { substances }]: [string, Listed]): boolean => substances.length === 0;
  for (const station of listed)
    if (request.stations !== undefined && bare(station))
      gaps.push(ownGap(station[0], period, { kind: 'noReadings' }));
  if ([...listed].every(bare)) gaps.push(ownGap(undefined, period, { kind: 'noMatch' }));
  return gaps;
}

interface StationRead {
  readonly series: SeriesFigures[];
  readonly gaps: Gap[];
  readonly late: number;
}

async function readStation(
  store: Store,
  request: ReportRequest,
  id: string,
  substances: readonly string[],
  onChunk: (doneMs: number) => void,
): Promise<StationRead> {
  const { period } = request;
  const selector = selectorOf([CONCENTRATION, ROW_TIME], [...request.matchers, ['id', id]]);
  const buffer = newRowBuffer();
  const states = new Map<string, SeriesState>(substances.map((s) => [s, newSeries(period)]));
  const inPeriod = (row: Row): boolean => row.atMs >= period.fromMs && row.atMs < period.toMs;
  const feed = (released: Map<string, Row[]>): void => {
    for (const [substance, rows] of released) {
      let state = states.get(substance);
      if (state === undefined) {
        if (!rows.some(inPeriod)) continue;
        state = newSeries(period);
        states.set(substance, state);
      }
      for (const row of rows)
        if (inPeriod(row)) addRow(state, row);
        else noteCadence(state, row.atMs);
    }
  };
  const gaps: Gap[] = [];
  let chunkMs = FIRST_CHUNK_MS;
  const readToMs = period.toMs + SCRAPE_LAG_MS;
  const around = { fromMs: period.fromMs - CADENCE_MARGIN_MS, toMs: readToMs };
  for (let startMs = around.fromMs; startMs < readToMs; ) {
    const endMs = Math.min(startMs + chunkMs, readToMs);
    try {
      const answer = await store.samples(selector, endMs - 1, endMs - startMs);
      const count = takeChunk(buffer, answer, { fromMs: startMs, toMs: endMs }, period, around);
      if (count < FEW_SAMPLES) chunkMs = Math.min(chunkMs * 2, MAX_CHUNK_MS);
      else if (count > MANY_SAMPLES) chunkMs = Math.max(chunkMs / 2, HOUR_MS);
    } catch (error) {
      gaps.push({ stationId: id, fromMs: startMs, toMs: endMs, message: (error as Error).message });
    }
    feed(releaseRows(buffer, endMs - SCRAPE_LAG_MS));
    onChunk(Math.max(period.fromMs, Math.min(endMs, period.toMs)));
    startMs = endMs;
  }
  feed(releaseRows(buffer, Number.POSITIVE_INFINITY));
  for (const [substance, { count, firstMs, lastMs }] of buffer.unpaired)
    gaps.push(
      ownGap(
        id,
        { fromMs: firstMs, toMs: lastMs },
        { kind: 'unpaired', substance, count, rowTime: ROW_TIME },
      ),
    );
  const series: SeriesFigures[] = [];
  for (const [substance, state] of [...states].sort(([a], [b]) => a.localeCompare(b))) {
    closeSeries(state);
    series.push(seriesFigures(substance, state));
  }
  return { series, gaps, late: buffer.late };
}

/** A gap the report decided on itself: its message in English, its reason for the report's language. */
function ownGap(
  stationId: string | undefined,
  span: { readonly fromMs: number; readonly toMs: number },
  reason: GapReason,
): Gap {
  const gap = { stationId, fromMs: span.fromMs, toMs: span.toMs, message: '', reason };
  return { ...gap, message: gapMessage(gap, 'en') };
}

/** Pairs each concentration sample with the row time its timestamp series held at that instant; returns the count. */
function takeChunk(
  buffer: ReturnType<typeof newRowBuffer>,
  answer: readonly { labels: Labels; samples: readonly { atMs: number; value: number }[] }[],
  chunk: { readonly fromMs: number; readonly toMs: number },
  period: Period,
  around: { readonly fromMs: number; readonly toMs: number },
): number {
  const inChunk = (s: { atMs: number }): boolean => s.atMs >= chunk.fromMs && s.atMs < chunk.toMs;
  const rowTimes = new Map<string, Map<number, number>>();
  let count = 0;
  for (const series of answer) {
    count += series.samples.length;
    if (series.labels.__name__ !== ROW_TIME) continue;
    const times = new Map<number, number>();
    // A row time that is no number (NaN) pairs nothing: its sample is tallied as without a row time.
    for (const s of series.samples)
      if (inChunk(s) && Number.isFinite(s.value)) times.set(s.atMs, Math.round(s.value * 1000));
    rowTimes.set(keyOf(series.labels), times);
  }
  for (const series of answer) {
    const substance = series.labels.substance;
    if (series.labels.__name__ !== CONCENTRATION || !substance) continue;
    const times = rowTimes.get(keyOf(series.labels));
    addSamples(
      buffer,
      substance,
      series.samples.filter(inChunk),
      (atMs) => times?.get(atMs),
      period,
      SCRAPE_LAG_MS,
      around,
    );
  }
  return count;
}

/** The series' labels other than its name and substance: what a concentration and its row time share. */
function keyOf(labels: Labels): string {
  return JSON.stringify(
    Object.entries(labels)
      .filter(([name]) => name !== '__name__' && name !== 'substance')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
