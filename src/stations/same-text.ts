// Whether two station lists render to the same exposition bytes. An on-demand exporter reads the list at every
// scrape and the list rarely changes between two reads: when the new one renders the same as the one served,
// the served text (and its gzip segment) is kept instead of rendering and allocating its copy. Each copy is
// a Buffer outside V8's heap that lives until a full collection: at 10,000 stations, 4.5 MB of dead text per
// scrape, which held RSS about 40 MiB above what was alive (docs/benchmarks.md).
import { STATION_FIELDS, type Station, type StationList } from './schema.js';

/** Every field renderStationText writes, compared; problems and log-only fields are not rendered. */
export function rendersSame(a: StationList, b: StationList): boolean {
  if (a === b) return true;
  if (a.rejected.invalid !== b.rejected.invalid || a.rejected.duplicate !== b.rejected.duplicate)
    return false;
  for (const field of STATION_FIELDS) {
    if ((a.skippedFields?.[field] ?? 0) !== (b.skippedFields?.[field] ?? 0)) return false;
  }
  return sameStations(a.stations, b.stations);
}

function sameStations(a: readonly Station[], b: readonly Station[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Station;
    const y = b[i] as Station;
    if (
      x.id !== y.id ||
      x.online !== y.online ||
      x.name !== y.name ||
      x.description !== y.description ||
      x.tz !== y.tz ||
      !sameNumber(x.utcOffsetSeconds, y.utcOffsetSeconds) ||
      !sameNumber(x.latitude, y.latitude) ||
      !sameNumber(x.longitude, y.longitude)
    ) {
      return false;
    }
  }
  return true;
}

// Rendered with String(): -0 prints as 0 like 0, so === (which holds -0 === 0) is the right sameness here.
const sameNumber = (x: number | undefined, y: number | undefined): boolean => x === y;
