// The station collector's share of a scrape: the station families, rendered once per station list, and the
// refresh series (cityair_up and friends) from the same state, per scrape.
import type { StationList } from '../boundaries/stations.js';
import { servable } from '../collectors/refresh-policy.js';
import type { RefreshWait } from '../collectors/refresher.js';
import type { StationCollector, StationState } from '../collectors/stations.js';
import { EXPORTER_METRICS as M } from './catalog.js';
import { singleSample } from './gauge-text.js';
import { type RenderedPart, renderedPart } from './rendered-part.js';
import type { ScrapeSource } from './scrape.js';
import { renderStationText } from './stations-text.js';

export function stationSource(
  collector: Pick<StationCollector, 'state' | 'refreshIfDue'>,
  maxAgeMs: number,
): ScrapeSource {
  // Only the latest list is kept rendered: an older one is never served again.
  let rendered: { readonly list: StationList; readonly part: RenderedPart } | undefined;
  const partFor = (list: StationList): RenderedPart => {
    if (rendered?.list !== list) rendered = { list, part: renderedPart(renderStationText(list)) };
    return rendered.part;
  };
  return {
    beforeScrape: collector.refreshIfDue,
    collect: (nowMs, wait) => {
      const state = collector.state();
      const served = servable(state, nowMs, maxAgeMs);
      return { cached: served && partFor(served.data), live: refreshSeries(state, wait) };
    },
  };
}

/** cityair_up is 1 only when the latest refresh succeeded and none this scrape waited for is still running. */
export function refreshSeries(state: StationState, wait: RefreshWait): string {
  const last = state.lastAttempt;
  const up = wait === 'settled' && last !== undefined && last.reason === undefined;
  return (
    singleSample(M.up, up ? 1 : 0) +
    singleSample(M.lastSuccess, state.current ? state.current.fetchedAtMs / 1000 : 0) +
    singleSample(M.lastDuration, last ? last.durationMs / 1000 : 0) +
    singleSample(M.backoffUntil, state.notBeforeMs / 1000)
  );
}
