// The status slice's one constructor: what the HTTP server calls for GET /, and the Content-Security-Policy the
// page needs.
import { type StatusSources, statusViewOf } from './adapter.js';
import { renderStatusPage, STATUS_PAGE_CSP } from './page.js';
import { parseStatusQuery } from './query.js';

export interface StatusPage {
  readonly csp: string;
  /** The whole page for the raw query string object of the request; never throws on any query. */
  readonly render: (nowMs: number, rawQuery: unknown) => string;
}

export function createStatusPage(sources: StatusSources): StatusPage {
  const view = statusViewOf(sources);
  return {
    csp: STATUS_PAGE_CSP,
    render: (nowMs, rawQuery) => renderStatusPage(view(nowMs), parseStatusQuery(rawQuery)),
  };
}
