import type { StationList } from '../boundaries/stations.js';
import { renderStationFamilies } from '../metrics/stations-text.js';
import type { Snapshot } from './policy.js';

export function makeSnapshot(list: StationList, fetchedAtMs: number): Snapshot {
  let online = 0;
  for (const s of list.stations) if (s.online) online++;
  return {
    list,
    fetchedAtMs,
    text: Buffer.from(renderStationFamilies(list), 'utf8'),
    online,
    offline: list.stations.length - online,
  };
}
