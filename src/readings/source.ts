// The readings' share of a scrape: the readings families and round health, rendered once per served set (a new
// round, a new station list, or a reading passing --measurements.max-age). A scrape never waits for a reading:
// this source has no beforeScrape.
import { forever, memoUntil } from '../collector/memo.js';
import { renderedPart } from '../exposition/rendered-part.js';
import type { ScrapeSource } from '../exposition/scrape.js';
import type { ServedReadings } from './served.js';
import { renderReadingsText } from './text.js';

export function readingsSource(serving: (nowMs: number) => ServedReadings | undefined): ScrapeSource {
  const partFor = memoUntil((_nowMs, served: ServedReadings) =>
    forever(renderedPart(renderReadingsText(served))),
  );
  return {
    collect: (nowMs) => {
      const served = serving(nowMs);
      return { cached: served && partFor(nowMs, served), live: '' };
    },
  };
}
