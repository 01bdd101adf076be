// The HTML page at /: what an operator needs when something is wrong, without Grafana. Readable with scripts off;
// a small inline script adds live filtering and sorting. Everything is inline (no other request), and the
// Content-Security-Policy allows exactly this style and this script, by hash.
import { createHash } from 'node:crypto';
import type { CollectorHealth } from '../collector/contract.js';
import { escapeHtml, formatAge, formatUtc } from './html.js';
import { stationTable, type TableHtml } from './table.js';
import type { StatusQuery, StatusView } from './view.js';

const STYLE = `
body{font:15px/1.4 system-ui,sans-serif;margin:1.5em;color:#1b1b1b;background:#fff}
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.4em 0 .4em}h3{font-size:1em;margin:.8em 0 .3em}
.facts{display:grid;grid-template-columns:max-content auto;gap:.15em 1em;margin:0}.facts dt{color:#555}.facts dd{margin:0}
.demo{background:#fff3cd;padding:.3em .6em;display:inline-block}
.bad{color:#a40000;font-weight:600}.ok{color:#1a6b1a}
table{border-collapse:collapse;margin-top:.6em}th,td{padding:.2em .7em;text-align:left;border-bottom:1px solid #e3e3e3}
th{background:#f3f3f3;position:sticky;top:0}th button{font:inherit;font-weight:600;border:0;background:none;padding:0;cursor:pointer}
tr.off{background:#fdecec}td:first-child{font-variant-numeric:tabular-nums}
.b0{background:#d9efd9}.b1{background:#fdf0a6}.b2{background:#fdcf96}.b3{background:#f4aaa4}.x{color:#444;font-size:.85em}
td.b0,td.b1,td.b2,td.b3{white-space:nowrap}
.legend span{padding:0 .5em;margin-right:.2em}
#live:empty{display:none}.more{color:#555}
`;

// Filters the rows on the page as one types (Enter still asks the server, which searches every station) and
// sorts a column when its heading is clicked.
const SCRIPT = `
(() => {
  const table = document.getElementById('stations');
  const input = document.getElementById('q');
  const live = document.getElementById('live');
  if (!table || !input || !live) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const keys = rows.map((r) => [0, 1, 2].map((i) => r.cells[i].textContent.toLowerCase()));
  const more = Number(live.dataset.more || 0);
  const filter = () => {
    const q = input.value.trim().toLowerCase();
    let n = 0;
    rows.forEach((r, i) => {
      r.hidden = !keys[i].some((k) => k.includes(q));
      if (!r.hidden) n++;
    });
    live.textContent = q === '' ? '' : n + ' of the ' + rows.length + ' rows on this page match' +
      (more > 0 ? '; press Enter to search all stations' : '') + '.';
  };
  input.addEventListener('input', filter);
  const collator = new Intl.Collator(undefined, { numeric: true });
  const num = (t) => (t.trim() === '' ? NaN : Number(t));
  const compare = (x, y) => {
    const a = num(x), b = num(y);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a - b;
    if (!Number.isNaN(a)) return -1;
    if (!Number.isNaN(b)) return 1;
    return collator.compare(x, y);
  };
  const heads = Array.from(table.tHead.rows[0].cells);
  heads.forEach((th, col) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = th.textContent;
    th.replaceChildren(button);
    button.addEventListener('click', () => {
      const up = th.getAttribute('aria-sort') !== 'ascending';
      for (const h of heads) h.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      const value = (r) => r.cells[col].dataset.v ?? r.cells[col].textContent;
      const sorted = rows.slice().sort((a, b) => (up ? 1 : -1) * compare(value(a), value(b)));
      body.append(...sorted);
    });
  });
})();
`;

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The header for /: nothing may load or run but the page's own style and script; no framing, no other target. */
export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${hash(STYLE)}`,
  `script-src ${hash(SCRIPT)}`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function renderStatusPage(view: StatusView, query: StatusQuery): string {
  const table = view.stations
    ? stationTable(view.stations, view.readingsLegend !== undefined, query, view.nowMs)
    : undefined;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>CityAir exporter</title><style>${STYLE}</style></head>
<body>
<h1>CityAir exporter</h1>
${view.demo ? '<p class="demo">Demo mode: simulated stations from the built-in simulator, not CityAir data.</p>\n' : ''}${about(view)}
<h2>Refresh</h2>
${view.collectors.map((c) => health(c, view.nowMs)).join('\n')}
${(view.sections ?? []).map((section) => `${section}\n`).join('')}<h2>Stations</h2>
${view.readingsLegend !== undefined && table ? `${view.readingsLegend}\n` : ''}${table ? stations(table, query) : noStations(view)}
<script>${SCRIPT}</script>
</body></html>
`;
}

function about(view: StatusView): string {
  const mode =
    view.mode === 'background' ? 'background (refreshes on a timer)' : 'on demand (refreshes when scraped)';
  return `<dl class="facts"><dt>Upstream</dt><dd>${escapeHtml(view.upstream)}</dd><dt>Mode</dt><dd>${mode}</dd>\
<dt>Version</dt><dd>${escapeHtml(view.version)}</dd><dt>Revision</dt><dd>${escapeHtml(view.revision)}</dd></dl>
<p><a href="${escapeHtml(view.telemetryPath)}">Metrics</a> · <a href="/healthz">Health</a> · <a href="/readyz">Readiness</a></p>`;
}

function health(c: CollectorHealth, nowMs: number): string {
  const when = (ms: number): string => `${formatUtc(ms)} (${formatAge(nowMs - ms)} ago)`;
  const good = c.lastSuccessMs === undefined ? 'none yet' : when(c.lastSuccessMs);
  const a = c.lastAttempt;
  let attempt = 'none yet';
  if (a && a.reason === undefined) attempt = `<span class="ok">succeeded</span> at ${when(a.atMs)}`;
  else if (a) {
    const reason = `: <code>${escapeHtml(a.reason ?? '')}</code>`;
    const message = a.message ? ` — ${escapeHtml(a.message)}` : '';
    attempt = `<span class="bad">failed</span> at ${when(a.atMs)}${reason}${message}`;
  }
  if (c.inFlight) attempt += ' · a refresh is under way';
  const backoff =
    c.backoffUntilMs > nowMs
      ? `no request before ${formatUtc(c.backoffUntilMs)} (in ${formatAge(c.backoffUntilMs - nowMs)})`
      : 'none';
  const failures = c.consecutiveFailures > 0 ? `<span class="bad">${c.consecutiveFailures}</span>` : '0';
  const id = `refresh-${c.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  return `<h3>${escapeHtml(c.name[0]?.toUpperCase() ?? '')}${escapeHtml(c.name.slice(1))}</h3>
<dl class="facts" id="${id}"><dt>Last good refresh</dt><dd>${good}</dd>\
<dt>Last attempt</dt><dd>${attempt}</dd><dt>Backoff</dt><dd>${backoff}</dd>\
<dt>Consecutive failures</dt><dd>${failures}</dd></dl>`;
}

function noStations(view: StatusView): string {
  const why =
    view.collectors[0]?.lastSuccessMs === undefined
      ? 'there has been no successful refresh yet'
      : 'the last good data is older than --upstream.max-age';
  return `<p class="bad">No station data is being served: ${why}.</p>`;
}

function stations(t: TableHtml, query: StatusQuery): string {
  const counts = `<p>${t.total} stations: ${t.online} online, ${t.offline} offline.</p>`;
  const q = escapeHtml(query.q);
  const form = `<form method="get" role="search"><label for="q">Filter by name, id or time zone</label> \
<input id="q" name="q" type="search" value="${q}" autocomplete="off"> <button type="submit">Filter</button>\
${query.q ? ' <a href="?">Show all</a>' : ''}</form>`;
  const matches = query.q ? `<p>${t.matched} of ${t.total} stations match “${q}”.</p>` : '';
  const hidden = t.matched - t.shown;
  const more =
    hidden > 0
      ? `<p class="more">${hidden} more ${hidden === 1 ? 'station' : 'stations'} not shown${
          t.hiddenOffline > 0 ? ` (${t.hiddenOffline} of them offline)` : ''
        }: narrow the list down with the filter.</p>`
      : '';
  return `${counts}\n${form}\n${matches}<p id="live" aria-live="polite" data-more="${hidden}"></p>\n${t.html}\n${more}`;
}
