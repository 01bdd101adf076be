// Whether a new list renders the same text as the one served: any field a label or value shows must count.
import { describe, expect, it } from 'vitest';
import { rendersSame } from '../../src/stations/same-text.js';
import type { StationList } from '../../src/stations/schema.js';
import { renderStationText } from '../../src/stations/text.js';
import { parsedDemoList, withStation } from '../support/station-list.js';

describe('rendersSame', () => {
  const base = parsedDemoList();
  it('is true for an equal list built anew', () => {
    expect(rendersSame(base, parsedDemoList())).toBe(true);
  });
  const changes: [string, StationList][] = [
    ['id', withStation(base, 0, { id: 7 })],
    ['name', withStation(base, 1, { name: 'other' })],
    ['description', withStation(base, 2, { description: 'other' })],
    ['online', withStation(base, 3, { online: !base.stations[3]?.online })],
    ['tz', withStation(base, 4, { tz: 'Etc/UTC' })],
    ['utc offset', withStation(base, 5, { utcOffsetSeconds: undefined })],
    ['latitude', withStation(base, 6, { latitude: 1.5 })],
    ['longitude', withStation(base, 7, { longitude: undefined })],
    ['a station fewer', { ...base, stations: base.stations.slice(1) }],
    ['rejected', { ...base, rejected: { invalid: 1, duplicate: 0 } }],
    ['fields skipped', { ...base, skippedFields: { ...(base.skippedFields ?? {}), tz: 2 } } as StationList],
  ];
  it.each(changes)('is false when %s differs, and the texts differ too', (_what, other) => {
    expect(rendersSame(base, other)).toBe(false);
    expect(renderStationText(base).equals(renderStationText(other))).toBe(false);
  });
});
