// What the readings slice may show at a given time: the newest reading of each station that the station list
// serves now, while its row is no older than --measurements.max-age. The metrics and the status page both show
// exactly this, and it is computed again only when a round, the list or the first expiry changes it.
import { type Expiring, memoUntil } from '../collector/memo.js';
import type { StationList } from '../stations/schema.js';
import { type ReadingsData, type RoundStats, readingExpiresAtMs } from './data.js';
import type { StationReading } from './schema.js';

export interface ServedReadings {
  /** Sorted by station id. */
  readonly shown: readonly StationReading[];
  readonly byId: ReadonlyMap<number, StationReading>;
  readonly round: RoundStats;
}

export function servedReadings(
  maxAgeMs: number,
): (nowMs: number, data: ReadingsData, list: StationList | undefined) => ServedReadings {
  return memoUntil((nowMs, data: ReadingsData, list: StationList | undefined) =>
    shownAt(nowMs, data, list, maxAgeMs),
  );
}

function shownAt(
  nowMs: number,
  data: ReadingsData,
  list: StationList | undefined,
  maxAgeMs: number,
): Expiring<ServedReadings> {
  // Readings follow the station series: a station not served (left the list, or the list expired) has none.
  const listed = new Set(list?.stations.map((s) => s.id));
  const shown: StationReading[] = [];
  let untilMs = Number.POSITIVE_INFINITY;
  for (const r of data.readings.values()) {
    const expiresMs = readingExpiresAtMs(r, maxAgeMs);
    if (nowMs > expiresMs || !listed.has(r.id)) continue;
    shown.push(r);
    untilMs = Math.min(untilMs, expiresMs);
  }
  shown.sort((a, b) => a.id - b.id);
  return { value: { shown, byId: new Map(shown.map((r) => [r.id, r])), round: data.round }, untilMs };
}
