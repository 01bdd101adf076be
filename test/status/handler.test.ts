import { describe, expect, it } from 'vitest';
import type { BuiltCollectors } from '../../src/collector/entry.js';
import { createStatusPage } from '../../src/status/handler.js';
import { STATUS_PAGE_CSP } from '../../src/status/page.js';
import { configFrom } from '../support/in-process.js';
import { stationListOf } from '../support/station-list.js';

const NOW = Date.UTC(2026, 10, 23, 12);

const statusPage = () =>
  createStatusPage({
    config: configFrom([]),
    version: '1.0.0',
    revision: 'abc1234',
    collectors: [],
    built: { stations: { serving: () => stationListOf([101, 202]) } } as unknown as BuiltCollectors,
  });

describe('createStatusPage', () => {
  it('renders the page for a request’s query, filtered on the server', () => {
    const page = statusPage();
    expect(page.render(NOW, {})).toContain('<td>202</td>');
    const filtered = page.render(NOW, { q: 's101' });
    expect(filtered).toContain('<td>101</td>');
    expect(filtered).not.toContain('<td>202</td>');
  });

  it('never throws on any query', () => {
    const page = statusPage();
    for (const raw of [
      undefined,
      null,
      'q',
      42,
      { q: { a: 1 } },
      { q: ['x', 'y'] },
      { __proto__: { q: 1 } },
    ]) {
      expect(() => page.render(NOW, raw)).not.toThrow();
    }
  });

  it('carries the Content-Security-Policy the page needs', () => {
    expect(statusPage().csp).toBe(STATUS_PAGE_CSP);
  });
});
