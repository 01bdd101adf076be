// The station list's share of a scrape: the station families, rendered once per station list, and the refresh
// series (cityair_up and friends) from the same state, per scrape.
import { forever, memoUntil } from '../collector/memo.js';
import { singleSample } from '../exposition/gauge-text.js';
import { type RenderedPart, renderedPart } from '../exposition/rendered-part.js';
import type { ScrapeSource } from '../exposition/scrape.js';
import type { CollectorState } from '../refresh/policy.js';
import type { Refresher } from '../refresh/refresher.js';
import { fitHeapGrowth } from '../runtime/heap-growth.js';
import { STATION_LIST_HEALTH as M } from './metrics.js';
import { rendersSame } from './same-text.js';
import type { StationList } from './schema.js';
import { renderStationText } from './text.js';

export function stationSource(
  refresher: Pick<Refresher<StationList>, 'state' | 'refreshIfDue' | 'inFlight'>,
  serving: (nowMs: number) => StationList | undefined,
): ScrapeSource {
  // Only the latest list is kept rendered: an older one is never served again. A new list that renders the same
  // keeps the text already made (same-text.ts).
  let rendered: { readonly list: StationList; readonly part: RenderedPart } | undefined;
  const partFor = memoUntil((_nowMs, list: StationList) => {
    const kept = rendered && rendersSame(rendered.list, list) ? rendered.part : undefined;
    const part = kept ?? renderedPart(renderStationText(list));
    if (!kept) fitHeapGrowth(part.text.length);
    rendered = { list, part };
    return forever(part);
  });
  return {
    beforeScrape: refresher.refreshIfDue,
    collect: (nowMs) => {
      const list = serving(nowMs);
      return {
        cached: list && partFor(nowMs, list),
        live: refreshSeries(refresher.state(), refresher.inFlight()),
      };
    },
  };
}

/**
 * cityair_up is the outcome of the latest completed refresh: a refresh still running when the scrape stops
 * waiting for it changes nothing until it ends, and shows as cityair_refresh_in_progress instead.
 */
function refreshSeries(state: CollectorState<StationList>, inFlight: boolean): string {
  const last = state.lastAttempt;
  const up = last !== undefined && last.reason === undefined;
  return (
    singleSample(M.up, up ? 1 : 0) +
    singleSample(M.inProgress, inFlight ? 1 : 0) +
    singleSample(M.lastSuccess, state.current ? state.current.fetchedAtMs / 1000 : 0) +
    singleSample(M.lastDuration, last ? last.durationMs / 1000 : 0) +
    singleSample(M.backoffUntil, state.notBeforeMs / 1000)
  );
}
