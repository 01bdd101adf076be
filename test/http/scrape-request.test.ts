import { describe, expect, it } from 'vitest';
import { scrapeWaitMs } from '../../src/http/scrape-request.js';

describe('scrapeWaitMs', () => {
  it('waits Prometheus’ scrape timeout less the offset', () => {
    expect(scrapeWaitMs('10', 30_000, 500)).toBe(9_500);
    expect(scrapeWaitMs(' 2.5 ', 30_000, 500)).toBe(2_000);
  });

  it('never waits longer than the upstream timeout, nor less than nothing', () => {
    expect(scrapeWaitMs('60', 8_000, 500)).toBe(8_000);
    expect(scrapeWaitMs('0.2', 8_000, 500)).toBe(0);
  });

  it('reads the first of repeated headers', () => {
    expect(scrapeWaitMs(['4', '60'], 8_000, 0)).toBe(4_000);
  });

  it('waits the upstream timeout without the header, or with a malformed one', () => {
    for (const header of [undefined, '', 'soon', '-5', '0', '1e3', 'Infinity', '5s']) {
      expect(scrapeWaitMs(header, 8_000, 500), String(header)).toBe(8_000);
    }
  });
});
