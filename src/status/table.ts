// The station table of the status page. Escaping and ordering 10,000 stations is the expensive part of the page,
// so it is done once per station array (one per refresh) and reused by every request until the data changes.

import { concentrationCell, HIGHEST_HEADING, highestCell } from '../readings/status-html.js';
import { escapeHtml, formatAge } from './html.js';
import type { StatusQuery, StatusStation } from './view.js';

/** Enough rows to show every offline station of a large fleet while the page stays far below 1 MB. */
const ROW_CAP = 1000;
/** Upstream text has no length limit; a row must not. The filter still searches the whole name. */
const MAX_NAME_CHARS = 120;
const MAX_TZ_CHARS = 64;

interface Row {
  readonly online: boolean;
  /** Lower-cased id, name and time zone, for the filter. */
  readonly key: string;
  /** The row's HTML is before + the reading's age + after; only the age changes between requests. */
  readonly before: string;
  readonly after: string;
  readonly atMs: number | undefined;
}

interface Table {
  readonly rows: readonly Row[];
  readonly online: number;
  readonly offline: number;
}

export interface TableHtml {
  readonly html: string;
  readonly total: number;
  readonly online: number;
  readonly offline: number;
  /** Stations that match the filter (all of them without one). */
  readonly matched: number;
  /** Of those, how many rows the page holds (at most ROW_CAP). */
  readonly shown: number;
  /** Offline stations among the matches that did not fit. */
  readonly hiddenOffline: number;
}

// Keyed by the array object, so a table lives exactly as long as the data it shows.
const tables = { withReadings: new WeakMap<object, Table>(), plain: new WeakMap<object, Table>() };
const collator = new Intl.Collator('en', { numeric: true });

export function stationTable(
  stations: readonly StatusStation[],
  readingsEnabled: boolean,
  query: StatusQuery,
  nowMs: number,
): TableHtml {
  const cache = readingsEnabled ? tables.withReadings : tables.plain;
  let table = cache.get(stations);
  if (!table) {
    table = buildTable(stations, readingsEnabled);
    cache.set(stations, table);
  }
  const needle = query.q.toLowerCase();
  const parts: string[] = [];
  let matched = 0;
  let hiddenOffline = 0;
  for (const row of table.rows) {
    if (needle !== '' && !row.key.includes(needle)) continue;
    matched++;
    if (parts.length < ROW_CAP) {
      const age = row.atMs === undefined ? '' : escapeHtml(formatAge(nowMs - row.atMs));
      parts.push(row.before + age + row.after);
    } else if (!row.online) hiddenOffline++;
  }
  return {
    html: `<table id="stations"><thead><tr>${headerCells(readingsEnabled)}</tr></thead><tbody>${parts.join('\n')}</tbody></table>`,
    total: table.rows.length,
    online: table.online,
    offline: table.offline,
    matched,
    shown: parts.length,
    hiddenOffline,
  };
}

function buildTable(stations: readonly StatusStation[], readingsEnabled: boolean): Table {
  // Offline first: the question an operator opens the page with is "what is down".
  const sorted = [...stations].sort(
    (a, b) => Number(a.online) - Number(b.online) || collator.compare(a.name, b.name) || a.id - b.id,
  );
  let online = 0;
  const rows = sorted.map((s): Row => {
    if (s.online) online++;
    return toRow(s, readingsEnabled);
  });
  return { rows, online, offline: rows.length - online };
}

function headerCells(readingsEnabled: boolean): string {
  const base = '<th>Id</th><th>Name</th><th>Time zone</th><th>State</th>';
  return readingsEnabled
    ? `${base}<th>PM2.5 µg/m³</th><th>PM10 µg/m³</th><th>${HIGHEST_HEADING}</th><th>AQI</th><th>Reading age</th>`
    : base;
}

function toRow(s: StatusStation, readingsEnabled: boolean): Row {
  const key = `${s.id}\u0000${s.name.toLowerCase()}\u0000${s.tz.toLowerCase()}`;
  const state = s.online ? '<td>online</td>' : '<td class="bad">offline</td>';
  const head = `<tr${s.online ? '' : ' class="off"'}><td>${s.id}</td><td>${escapeHtml(clip(s.name, MAX_NAME_CHARS))}</td><td>${escapeHtml(clip(s.tz, MAX_TZ_CHARS)) || '–'}</td>${state}`;
  if (!readingsEnabled) return { online: s.online, key, before: `${head}</tr>`, after: '', atMs: undefined };
  const r = s.reading;
  const values = `${concentrationCell('pm2.5', r?.pm25)}${concentrationCell('pm10', r?.pm10)}${highestCell(r?.highest)}${numberCell(r?.aqi)}`;
  if (!r)
    return { online: s.online, key, before: `${head}${values}<td>–</td></tr>`, after: '', atMs: undefined };
  // data-v makes the age column sort by time (newest first) rather than by its text.
  return {
    online: s.online,
    key,
    before: `${head}${values}<td data-v="${-r.atMs}">`,
    after: '</td></tr>',
    atMs: r.atMs,
  };
}

function numberCell(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '<td>–</td>';
  return `<td>${Math.round(value * 10) / 10}</td>`;
}

/** At most max characters (code points, so no emoji is cut in half), with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
