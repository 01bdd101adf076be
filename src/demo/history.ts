// The simulated API's history quirks, for the backfill's demo and tests: answers to a request for rows from more
// than six hours ago (the exporter's own rounds ask for the last half hour, and never see these). Some stations
// send their history in other units (µg/m³, hPa), some carry a row whose date is not UTC, one fails twice before
// it answers and one asks the client to wait first. Permanent failures are for tests to inject.
import { type DemoAnswer, type DemoRow, demoReadingsAnswer, type ReadingsQuery } from './readings.js';
import { type Intercept, startSimulator } from './simulator.js';
import { demoStations } from './stations.js';

const HISTORY_AGE_MS = 6 * 3_600_000;

export function isHistoryQuery(query: ReadingsQuery, nowMs: number): boolean {
  return query.dateGtMs !== undefined && query.dateGtMs < nowMs - HISTORY_AGE_MS;
}

/** Stations whose history comes in µg/m³ and hPa instead of mg/m³ and mm Hg. */
export const demoHistoryInOtherUnits = (id: number): boolean => id % 5 === 2;
/** Stations whose history holds, once a day at noon, a row dated in local time without an offset. */
export const demoHistoryHasBadRow = (id: number): boolean => id % 10 === 4;

const MG_FIELDS = ['pm2', 'pm10', 'co', 'no2', 'so2', 'o3', 'h2s'];

/** The simulator's default answers: demoReadingsAnswer, with the history quirks for requests of history. */
export function demoReadings(id: number, nowMs: number, query: ReadingsQuery): DemoAnswer {
  const answer = demoReadingsAnswer(id, nowMs, query);
  return isHistoryQuery(query, nowMs) ? withHistoryQuirks(id, answer) : answer;
}

/** The answer as a station with history quirks sends it; the values mean the same air. */
export function withHistoryQuirks(id: number, answer: DemoAnswer): DemoAnswer {
  if (!demoHistoryInOtherUnits(id) && !demoHistoryHasBadRow(id)) return answer;
  const units = { ...answer.meta.units };
  if (demoHistoryInOtherUnits(id)) {
    for (const f of MG_FIELDS) if (units[f] === 'mg/m³') units[f] = 'µg/m³';
    units.pressure = 'hPa';
  }
  const data = answer.data.map((row) => quirkyRow(id, row));
  return { meta: { units }, data };
}

function quirkyRow(id: number, row: DemoRow): DemoRow {
  const out: DemoRow = { ...row };
  if (demoHistoryInOtherUnits(id)) {
    // Rounded as a host would print them: 39.49, not 39.489999999999995.
    for (const f of MG_FIELDS) if (typeof out[f] === 'number') out[f] = round((out[f] as number) * 1000, 6);
    if (typeof out.pressure === 'number') out.pressure = round((out.pressure * 133.322) / 100, 4);
  }
  if (demoHistoryHasBadRow(id) && row.date.endsWith('T12:00:00Z'))
    out.date = row.date.replace('T', ' ').slice(0, -1);
  return out;
}

/**
 * The demo's passing failures, as `intercept` of the simulator: a station's history requests answer 503 twice for
 * ids ≡ 11 (mod 40), then normally; a 429 with Retry-After: 1 once for ids ≡ 5 (mod 40). The demo's 1051 and 1085.
 */
export function demoHistoryIntercept(): Intercept {
  const seen = new Map<number, number>();
  return (_req, res, route, proceed) => {
    if (route.kind !== 'readings' || !isHistoryUrl(route.url, Date.now())) return proceed();
    const nth = seen.get(route.id) ?? 0;
    seen.set(route.id, nth + 1);
    const json = { 'content-type': 'application/json' };
    if (route.id % 40 === 11 && nth < 2) res.writeHead(503, json).end('{"error":"busy, try again"}');
    else if (route.id % 40 === 5 && nth < 1) res.writeHead(429, { ...json, 'retry-after': '1' }).end('{}');
    else proceed();
  };
}

function isHistoryUrl(url: URL, nowMs: number): boolean {
  const text = url.searchParams.get('date__gt');
  const dateGtMs = text === null ? Number.NaN : Date.parse(text.replace(' ', 'T').replace(/Z?$/, 'Z'));
  return Number.isFinite(dateGtMs) && dateGtMs < nowMs - HISTORY_AGE_MS;
}

const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** The backfill's --demo upstream: the demo's 40 stations, their history with its quirks, on a free port. */
export async function startDemoHistory(
  apiKey: string,
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  return startSimulator({
    posts: demoStations(),
    apiKey,
    readings: demoReadings,
    intercept: demoHistoryIntercept(),
  });
}
