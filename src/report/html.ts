// The report as one self-contained HTML page: the network's summary at the top, then a page per station with its
// table and a chart per substance. Nothing outside the page is loaded: the Content-Security-Policy forbids it, and
// every text from the store (station names, error messages) is escaped.
import { createHash } from 'node:crypto';
import { DECIMALS, type Indicator, UNCONFIRMED_RULES } from '../norms/reporting.js';
import { SUBSTANCE_NAMES } from '../norms/table.js';
import { escapeHtml } from '../status/html.js';
import { CSV_COLUMNS } from './csv.js';
import { gapMessage } from './messages.js';
import type { SetBy, StationFigures } from './network.js';
import { reportNotes } from './notes.js';
import { formatIndicator, formatNumber, formatTime, indicatorDecimals, type Lang } from './numbers.js';
import type { Report } from './read.js';
import { seriesChart } from './svg.js';
import { WORDS } from './words.js';

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;color:#111;margin:1.5em auto;max-width:60em;padding:0 1em}
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.2em 0 .4em}h3{font-size:1em;margin:1em 0 .2em}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}.incomplete{border:2px solid #c0392b;color:#c0392b;padding:.5em;font-weight:bold}
.level{font-size:1.2em;font-weight:bold}.muted{color:#555}svg{display:block;max-width:100%;break-inside:avoid}
@page{size:A4;margin:14mm}
@media print{body{margin:0;max-width:none;font-size:11px}section.station{break-before:page}table{break-inside:auto}tr{break-inside:avoid}}
`;

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Nothing may load: no script, no image, no font, no request; only the page's own style. */
export const REPORT_CSP = [
  "default-src 'none'",
  `style-src ${hash(STYLE)}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export interface HtmlOptions {
  readonly lang: Lang;
  readonly offsetMinutes: number;
  readonly generatedAtMs: number;
}

export function reportHtml(report: Report, options: HtmlOptions): string {
  const { lang, offsetMinutes } = options;
  const w = WORDS[lang];
  const { period } = report.request;
  const periodText = `${formatTime(period.fromMs, offsetMinutes)} — ${formatTime(period.toMs, offsetMinutes)}`;
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${w.title}: ${periodText}`)}</title><style>${STYLE}</style></head>
<body>
<header><h1>${escapeHtml(w.title)}</h1>
<p>${w.period}: ${escapeHtml(periodText)}${labelsText(report)}<br><span class="muted">${w.generated}: ${escapeHtml(formatTime(options.generatedAtMs, offsetMinutes))}; ${report.queries} ${w.queries}</span></p>
${report.gaps.length > 0 ? `<p class="incomplete">${escapeHtml(w.incomplete)}</p>` : ''}</header>
${summary(report, lang)}
${missing(report, options)}
${notes(report, lang)}
${report.stations.map((s) => stationSection(s, report, options)).join('\n')}
</body></html>
`;
}

function labelsText(report: Report): string {
  const pairs = report.request.matchers.map(([n, v]) => `${n}="${v}"`).join(', ');
  return pairs ? `; <code>${escapeHtml(pairs)}</code>` : '';
}

const substanceName = (s: string): string => SUBSTANCE_NAMES[s as keyof typeof SUBSTANCE_NAMES] ?? s;

function setByText(by: SetBy | undefined, indicator: Indicator, lang: Lang, suffix = ''): string {
  if (!by) return `<td>${WORDS[lang].noData}</td>`;
  return `<td class="n">${formatIndicator(by.value, indicator, lang)}${suffix}</td><td>${escapeHtml(substanceName(by.substance))}, ${escapeHtml(stationLabel(by.stationName, by.stationId))}</td>`;
}

const stationLabel = (name: string, id: string): string => (name ? `${name} (${id})` : id);

function summary(report: Report, lang: Lang): string {
  const w = WORDS[lang];
  const n = report.network;
  const level = n.level
    ? `<p class="level">${w.level}: ${w.levels[n.level.level]} (${w.setBy} ${n.level.setBy.map((i) => w.indicators[i]).join(', ')})</p>`
    : `<p class="level">${w.level}: —</p>`;
  const byIndicator = n.levels.map((l) => `${w.indicators[l.indicator]}: ${w.levels[l.level]}`).join('; ');
  const capture = n.capture
    ? `<td class="n">${formatNumber(100 * n.capture.mean, DECIMALS.percent, lang)} %</td><td>${w.lowestCapture}: ${formatNumber(100 * n.capture.lowest.value, DECIMALS.percent, lang)} % — ${escapeHtml(substanceName(n.capture.lowest.substance))}, ${escapeHtml(stationLabel(n.capture.lowest.stationName, n.capture.lowest.stationId))}</td>`
    : `<td colspan="2">${w.noData}</td>`;
  // The terms with the total's places, so that a total printed with more places near an edge adds up.
  const termPlaces = n.iza ? indicatorDecimals(n.iza.value, 'iza') : DECIMALS.iza;
  const iza = n.iza
    ? `<td class="n">${formatIndicator(n.iza.value, 'iza', lang)}</td><td>${w.izaTerms}: ${n.iza.terms
        .map(
          (t) =>
            `${escapeHtml(substanceName(t.substance))} (${formatNumber(t.mean, 1, lang)} / ${formatNumber(t.norm, 0, lang)})^${formatNumber(t.exponent, 1, lang)} = ${formatNumber(t.term, termPlaces, lang)}`,
        )
        .join('; ')}</td>`
    : `<td colspan="2" class="muted">${w.izaNotYear}</td>`;
  return `<section class="summary"><h2>${w.network}</h2>${level}${byIndicator ? `<p>${escapeHtml(byIndicator)}</p>` : ''}
<table><tbody>
<tr><th>${w.indicators.si}</th>${setByText(n.si, 'si', lang)}</tr>
<tr><th>${w.indicators.np}</th>${setByText(n.np, 'np', lang, ' %')}</tr>
<tr><th>${w.indicators.iza}</th>${iza}</tr>
<tr><th>${w.capture}</th>${capture}</tr>
<tr><th>${w.stations}</th><td class="n">${report.stations.length}</td><td></td></tr>
</tbody></table></section>`;
}

function missing(report: Report, options: HtmlOptions): string {
  if (report.gaps.length === 0) return '';
  const items = report.gaps.map(
    (g) =>
      `<li>${escapeHtml(g.stationId ?? '—')}: ${escapeHtml(formatTime(g.fromMs, options.offsetMinutes))} — ${escapeHtml(formatTime(g.toMs, options.offsetMinutes))}: ${escapeHtml(gapMessage(g, options.lang))}</li>`,
  );
  return `<section><h2>${WORDS[options.lang].missing}</h2><ul>${items.join('')}</ul></section>`;
}

function notes(report: Report, lang: Lang): string {
  const w = WORDS[lang];
  const rules = UNCONFIRMED_RULES.map((r) => `<li>${escapeHtml(r[lang])}</li>`).join('');
  const more = reportNotes(report, lang)
    .map((note) => `<p>${escapeHtml(note)}</p>`)
    .join('');
  return `<section><h2>${w.notes}</h2><p>${escapeHtml(w.meansOnly)}</p>${more}<h3>${w.rules}</h3><ul>${rules}</ul></section>`;
}

function stationSection(station: StationFigures, report: Report, options: HtmlOptions): string {
  const { lang, offsetMinutes } = options;
  const w = WORDS[lang];
  const ctx = {
    lang,
    offsetMinutes,
    incomplete: new Set(report.gaps.map((g) => g.stationId ?? '')),
  };
  const head = station.series.map((s) => `<th>${escapeHtml(substanceName(s.substance))}</th>`).join('');
  const rows = CSV_COLUMNS.slice(3)
    .map((c) => {
      const cells = station.series.map((s) => {
        const text = c.value(s, station, ctx);
        return `<td class="n">${escapeHtml(c.key === 'resolution' ? w.resolutions[s.resolution] : text || '—')}</td>`;
      });
      return `<tr><th>${escapeHtml(c[lang])}</th>${cells.join('')}</tr>`;
    })
    .join('');
  // A station of hourly or daily rows has no single values: its charts and caption speak of daily means only.
  const legendOf = (single: boolean): string => (single ? w.chartLegend : w.chartLegendMeans);
  const charted = station.series.filter((s) => s.resolution !== 'none');
  const caption = charted.length === 0 ? '' : legendOf(charted.some((s) => s.resolution === 'single'));
  const charts = charted
    .map((s) => {
      const title = `${substanceName(s.substance)}: ${legendOf(s.resolution === 'single')}`;
      return `<h3>${escapeHtml(substanceName(s.substance))}</h3>${seriesChart(s, report.request.period, lang, offsetMinutes, title)}`;
    })
    .join('');
  return `<section class="station"><h2>${w.station} ${escapeHtml(stationLabel(station.name, station.id))}</h2>
<table><thead><tr><th>${w.substance}</th>${head}</tr></thead><tbody>${rows}</tbody></table>
${caption ? `<p class="muted">${escapeHtml(caption)}</p>` : ''}${charts}</section>`;
}
