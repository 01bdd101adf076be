// Renders the station families straight to exposition text, once per refresh. prom-client would build an
// object per series on every scrape; with 100,000 stations that is the whole scrape budget.
import type { Station, StationList } from '../boundaries/stations.js';
import { STATION_METRICS, type MetricSpec } from './catalog.js';
import { escapeHelp, escapeLabelValue } from './escape.js';

function header(spec: MetricSpec): string {
  return `# HELP ${spec.name} ${escapeHelp(spec.help)}\n# TYPE ${spec.name} ${spec.type}\n`;
}

// Ids are integers from JSON: String() prints them in full (1000000, never 1e+06) up to 2^53.
function family(
  spec: MetricSpec,
  stations: readonly Station[],
  line: (s: Station, i: number) => string | undefined,
): string {
  let out = '';
  for (let i = 0; i < stations.length; i++) {
    const l = line(stations[i] as Station, i);
    if (l !== undefined) out += l;
  }
  return out === '' ? '' : header(spec) + out;
}

const M = STATION_METRICS;

/** The station part of the exposition, identical in text 0.0.4 and OpenMetrics (gauges only, no timestamps). */
export function renderStationFamilies(list: StationList): string {
  const { stations } = list;
  // Escape each string once, not once per family.
  const names = stations.map((s) => escapeLabelValue(s.name));
  const tzs = stations.map((s) => escapeLabelValue(s.tz));
  let online = 0;
  for (const s of stations) if (s.online) online++;

  return (
    family(
      M.info,
      stations,
      (s, i) =>
        `${M.info.name}{id="${s.id}",name="${names[i]}",description="${escapeLabelValue(s.description)}",tz="${tzs[i]}"} 1\n`,
    ) +
    family(
      M.online,
      stations,
      (s, i) => `${M.online.name}{id="${s.id}",name="${names[i]}",tz="${tzs[i]}"} ${s.online ? 1 : 0}\n`,
    ) +
    family(M.latitude, stations, (s) =>
      s.latitude === undefined ? undefined : `${M.latitude.name}{id="${s.id}"} ${s.latitude}\n`,
    ) +
    family(M.longitude, stations, (s) =>
      s.longitude === undefined ? undefined : `${M.longitude.name}{id="${s.id}"} ${s.longitude}\n`,
    ) +
    family(M.utcOffset, stations, (s) =>
      s.utcOffsetSeconds === undefined ? undefined : `${M.utcOffset.name}{id="${s.id}"} ${s.utcOffsetSeconds}\n`,
    ) +
    header(M.count) +
    `${M.count.name}{state="online"} ${online}\n${M.count.name}{state="offline"} ${stations.length - online}\n` +
    header(M.rejected) +
    `${M.rejected.name}{reason="invalid"} ${list.rejected.invalid}\n` +
    `${M.rejected.name}{reason="duplicate"} ${list.rejected.duplicate}\n`
  );
}
