import type { StationList } from '../boundaries/stations.js';
import { type DeflateSegment, deflateSegment } from '../metrics/gzip-splice.js';
import { renderStationText } from '../metrics/stations-text.js';
import type { Snapshot } from './policy.js';

export function makeSnapshot(list: StationList, fetchedAtMs: number): Snapshot {
  let online = 0;
  for (const s of list.stations) if (s.online) online++;
  const text = renderStationText(list);
  // Compressed on the first gzip scrape, then shared by every scrape of this snapshot.
  let deflated: Promise<DeflateSegment> | undefined;
  return {
    list,
    fetchedAtMs,
    text,
    deflated: () => {
      deflated ??= deflateSegment(text);
      return deflated;
    },
    online,
    offline: list.stations.length - online,
  };
}
