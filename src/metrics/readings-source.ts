// The readings collector's share of a scrape: the readings families and round health, rendered once per round
// and station list, and again only when a reading shown passes --measurements.max-age. A scrape never waits for
// a reading: this source has no beforeScrape.

import type { StationList } from '../boundaries/stations.js';
import type { ReadingsCollector } from '../collectors/readings.js';
import type { ReadingsData } from '../collectors/readings-data.js';
import { servable } from '../collectors/refresh-policy.js';
import type { StationCollector } from '../collectors/stations.js';
import { renderReadingsText } from './readings-text.js';
import { type RenderedPart, renderedPart } from './rendered-part.js';
import type { ScrapeSource } from './scrape.js';

interface Rendered {
  readonly data: ReadingsData;
  readonly list: StationList | undefined;
  readonly validUntilMs: number;
  readonly part: RenderedPart;
}

export function readingsSource(
  readings: Pick<ReadingsCollector, 'state'>,
  stations: Pick<StationCollector, 'state'>,
  maxAges: { readonly readingsMs: number; readonly stationsMs: number },
): ScrapeSource {
  let rendered: Rendered | undefined;
  const partFor = (data: ReadingsData, list: StationList | undefined, nowMs: number): RenderedPart => {
    const r = rendered;
    if (r && r.data === data && r.list === list && nowMs <= r.validUntilMs) return r.part;
    // Readings follow the station series: a station not served (left the list, or the list expired) has none.
    const ids = new Set(list?.stations.map((s) => s.id));
    const { text, validUntilMs } = renderReadingsText(data, {
      nowMs,
      maxAgeMs: maxAges.readingsMs,
      listed: (id) => ids.has(id),
    });
    rendered = { data, list, validUntilMs, part: renderedPart(text) };
    return rendered.part;
  };
  return {
    collect: (nowMs) => {
      const data = readings.state().current?.data;
      const list = servable(stations.state(), nowMs, maxAges.stationsMs)?.data;
      return { cached: data && partFor(data, list, nowMs), live: '' };
    },
  };
}
