// The status page as a pure function of its view: what an operator reads, and that upstream text stays text.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CollectorHealth } from '../../src/collector/contract.js';
import { normValue } from '../../src/norms/lookup.js';
import { readingsLegend } from '../../src/readings/status-html.js';
import { parseStationList } from '../../src/stations/schema.js';
import { renderStatusPage, STATUS_PAGE_CSP } from '../../src/status/page.js';
import { parseStatusQuery } from '../../src/status/query.js';
import type { StatusStation, StatusView } from '../../src/status/view.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

function view(stations: readonly StatusStation[] | undefined, more: Partial<StatusView> = {}): StatusView {
  return {
    version: '1.2.3',
    revision: 'abc1234',
    upstream: 'https://mycityair.ru',
    demo: false,
    mode: 'on-demand',
    telemetryPath: '/metrics',
    nowMs: NOW,
    collectors: [stationList()],
    stations,
    readingsLegend: undefined,
    ...more,
  };
}

/** The station list's health: a success 30 s ago unless told otherwise. */
function stationList(over: Partial<CollectorHealth> = {}): CollectorHealth {
  return {
    name: 'station list',
    lastSuccessMs: NOW - 30_000,
    lastAttempt: { atMs: NOW - 30_000, durationMs: 100, reason: undefined, message: undefined },
    backoffUntilMs: 0,
    consecutiveFailures: 0,
    serving: true,
    inFlight: false,
    ...over,
  };
}

const station = (id: number, name: string, online = true, tz = 'Europe/Moscow'): StatusStation => ({
  id,
  name,
  tz,
  online,
});

/** The station rows in page order, as [id, name] with the entities decoded. */
function rows(html: string): Array<[number, string]> {
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  return [...body.matchAll(/<tr[^>]*><td>(\d+)<\/td><td>([^<]*)<\/td>/g)].map((m) => [
    Number(m[1]),
    (m[2] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  ]);
}

const page = (v: StatusView, q = ''): string => renderStatusPage(v, parseStatusQuery({ q }));

describe('status page', () => {
  it('shows hostile station names and failure messages as text, and keeps non-ASCII as it is', () => {
    const hostile = [
      station(1, '"><script>alert(1)</script>'),
      station(2, "O'Brien's <b>bold</b> & co", false, '</td><td onclick=alert(3)>'),
      station(3, 'Москва, ул. "Ленина", 12'),
      station(4, 'Smog 🌫️ station 🇷🇺'),
    ];
    const html = page(
      view(hostile, {
        collectors: [
          stationList({
            lastSuccessMs: NOW - 60_000,
            lastAttempt: {
              atMs: NOW - 5000,
              durationMs: 100,
              reason: 'invalid_json',
              message: 'got <html><script>x()</script>',
            },
            backoffUntilMs: NOW + 20_000,
            consecutiveFailures: 2,
          }),
        ],
      }),
    );
    // The page's own script is the only one, and no upstream text became an element or attribute.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<html><script>');
    expect(html).not.toMatch(/<td onclick/);
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('O&#39;Brien&#39;s &lt;b&gt;bold&lt;/b&gt; &amp; co');
    expect(html).toContain('got &lt;html&gt;&lt;script&gt;x()&lt;/script&gt;');
    const reflected = page(view(hostile), '"><script>alert(2)</script>');
    expect(reflected.match(/<script/g)).toHaveLength(1);
    expect(reflected).toContain('value="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
    expect(reflected).toContain('0 of 4 stations match “&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;”.');
    expect(html).toContain('Москва, ул. &quot;Ленина&quot;, 12');
    expect(html).toContain('Smog 🌫️ station 🇷🇺');
  });

  it('lists offline stations first, then the rest by name', () => {
    const html = page(
      view([
        station(10, 'Bravo'),
        station(11, 'alpha', false),
        station(12, 'Charlie'),
        station(13, 'Delta', false),
      ]),
    );
    expect(rows(html)).toEqual([
      [11, 'alpha'],
      [13, 'Delta'],
      [10, 'Bravo'],
      [12, 'Charlie'],
    ]);
    expect(html).toContain('4 stations: 2 online, 2 offline.');
  });

  it('filters by name (any case, any script), id or time zone on the server', () => {
    const list = [
      station(1001, 'Москва, ул. Ленина'),
      station(2002, 'Kathmandu, Thamel', true, 'Asia/Kathmandu'),
      station(3003, 'Алматы', false, 'Asia/Almaty'),
    ];
    expect(rows(page(view(list), 'москва')).map(([id]) => id)).toEqual([1001]);
    expect(rows(page(view(list), '2002')).map(([id]) => id)).toEqual([2002]);
    expect(rows(page(view(list), 'asia/')).map(([id]) => id)).toEqual([3003, 2002]);
    expect(page(view(list), 'asia/')).toContain('2 of 3 stations match “asia/”.');
    expect(rows(page(view(list), 'nowhere'))).toEqual([]);
    expect(rows(page(view(list), '   '))).toHaveLength(3);
  });

  it('keeps 10,000 stations under 1 MB: every offline station first, then a count of the rest', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      station(1_000_000 + i, `Новосибирск, Красный проспект, 101 #${i}`, i % 10 !== 0, 'Asia/Novosibirsk'),
    );
    const html = page(view(many));
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    const shown = rows(html);
    expect(shown).toHaveLength(1000);
    // The 1,000 offline stations fill the page; the 9,000 online ones are counted.
    expect(html.match(/<tr class="off">/g)).toHaveLength(1000);
    expect(html).toContain('10000 stations: 9000 online, 1000 offline.');
    expect(html).toContain('9000 more stations not shown: narrow the list down with the filter.');
    // The filter reaches stations past the cap.
    expect(rows(page(view(many), '#9999'))).toEqual([
      [1_009_999, 'Новосибирск, Красный проспект, 101 #9999'],
    ]);

    const allDown = many.map((s) => ({
      ...s,
      online: false,
      reading: {
        pm25: 12.34,
        pm10: 40,
        aqi: 3,
        atMs: NOW,
        highest: { substance: 'so2' as const, multiple: 12.5 },
      },
    }));
    const worst = page(view(allDown, { readingsLegend: readingsLegend('5m') }));
    expect(Buffer.byteLength(worst)).toBeLessThan(1_000_000);
    expect(worst).toContain('9000 more stations not shown (9000 of them offline)');

    // Upstream names have no length limit; the rows do.
    const long = many.map((s) => ({ ...s, name: `${'Длинное имя 🌫️ '.repeat(20)}${s.id}` }));
    const clipped = page(view(long));
    expect(Buffer.byteLength(clipped)).toBeLessThan(1_000_000);
    expect(rows(clipped)[0]?.[1]).toMatch(/^Длинное имя 🌫️ .{80,}…$/u);
    expect(rows(page(view(long), String(1_009_999)))).toHaveLength(1);
  });

  it('shows the readings columns only with the readings collector on, with each reading’s age', () => {
    const list: StatusStation[] = [
      {
        ...station(1, 'With reading'),
        reading: { pm25: 12.345, pm10: 40, aqi: 3.5, atMs: NOW - 5 * 60_000 },
      },
      { ...station(2, 'Partial'), reading: { pm25: 8, atMs: NOW - 90_000 } },
      station(3, 'No reading'),
    ];
    const on = page(view(list, { readingsLegend: readingsLegend('5m') }));
    expect(on).toContain(
      '<th>PM2.5 µg/m³</th><th>PM10 µg/m³</th><th>Highest × ПДК м.р.</th><th>AQI</th><th>Reading age</th>',
    );
    expect(text(on, 'With reading')).toEqual([
      'With reading',
      'Europe/Moscow',
      'online',
      '12.3 0.08×',
      '40 0.13×',
      '–',
      '3.5',
      '5 min',
    ]);
    expect(text(on, 'Partial')).toEqual([
      'Partial',
      'Europe/Moscow',
      'online',
      '8 0.05×',
      '–',
      '–',
      '–',
      '90 s',
    ]);
    expect(text(on, 'No reading')).toEqual([
      'No reading',
      'Europe/Moscow',
      'online',
      '–',
      '–',
      '–',
      '–',
      '–',
    ]);
    // The table is cached per station list; the ages are not.
    const later = page(view(list, { readingsLegend: readingsLegend('5m'), nowMs: NOW + 60 * 60_000 }));
    expect(later).toMatch(/<td>With reading<\/td>.*<td[^>]*>65 min<\/td>/);

    const off = page(view(list));
    expect(off).not.toContain('PM2.5');
    expect(off).not.toContain('12.3');
  });

  it('shows new data as soon as the station list is a new one', () => {
    const before = [station(1, 'Old name', false)];
    expect(rows(page(view(before)))).toEqual([[1, 'Old name']]);
    const after = [station(1, 'New name'), station(2, 'Added', false)];
    expect(rows(page(view(after)))).toEqual([
      [2, 'Added'],
      [1, 'New name'],
    ]);
    expect(page(view(after))).toContain('2 stations: 1 online, 1 offline.');
  });

  it('tells why no station is listed', () => {
    const never = page(
      view(undefined, {
        collectors: [
          stationList({
            lastSuccessMs: undefined,
            lastAttempt: { atMs: NOW - 2000, durationMs: 10, reason: 'auth', message: undefined },
            backoffUntilMs: NOW + 4000,
            consecutiveFailures: 3,
            serving: false,
          }),
        ],
      }),
    );
    expect(never).toContain('No station data is being served: there has been no successful refresh yet.');
    expect(never).toContain('<dt>Last good refresh</dt><dd>none yet</dd>');
    expect(never).toContain('failed</span> at 2026-11-23 11:59:58 UTC (2 s ago): <code>auth</code>');
    expect(never).toContain('no request before 2026-11-23 12:00:04 UTC (in 4 s)');
    expect(never).toContain('<dt>Consecutive failures</dt><dd><span class="bad">3</span></dd>');
    expect(page(view(undefined))).toContain('the last good data is older than --upstream.max-age');
  });

  it('names the upstream, the mode, the build, and links the metrics path and the probes', () => {
    const html = page(view([], { mode: 'background', telemetryPath: '/cityair/metrics', demo: true }));
    expect(html).toContain('<dt>Upstream</dt><dd>https://mycityair.ru</dd>');
    expect(html).toContain('background (refreshes on a timer)');
    expect(html).toContain('<dt>Version</dt><dd>1.2.3</dd><dt>Revision</dt><dd>abc1234</dd>');
    expect(html).toContain('<a href="/cityair/metrics">Metrics</a>');
    expect(html).toContain('<a href="/healthz">');
    expect(html).toContain('<a href="/readyz">');
    expect(html).toContain('Demo mode');
    expect(html).toContain('<dt>Last good refresh</dt><dd>2026-11-23 11:59:30 UTC (30 s ago)</dd>');
  });
});

/** The text of the cells of a station's row, after the id, markup stripped. */
function text(html: string, name: string): string[] {
  const row = html.split('\n').find((l) => l.includes(`<td>${name}</td>`)) ?? '';
  return [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].slice(1).map((m) => (m[1] ?? '').replace(/<[^>]+>/g, ''));
}

/** The band class of a station's cell in a column (0-based, after the id). */
function band(html: string, name: string, column: number): string | undefined {
  const row = html.split('\n').find((l) => l.includes(`<td>${name}</td>`)) ?? '';
  const cell = [...row.matchAll(/<td([^>]*)>/g)][column + 1]?.[1] ?? '';
  return /class="(b\d)"/.exec(cell)?.[1];
}

describe('readings against ПДК м.р.', () => {
  const pm25 = normValue('pm2.5', 'pdk-single') ?? Number.NaN;
  const pm10 = normValue('pm10', 'pdk-single') ?? Number.NaN;
  const at = (
    name: string,
    pm25Multiple: number,
    highest?: { substance: 'so2' | 'no2'; multiple: number },
  ) => ({
    ...station(name.length, name),
    reading: {
      pm25: pm25 * pm25Multiple,
      pm10: pm10 * 0.5,
      atMs: NOW - 60_000,
      ...(highest ? { highest } : {}),
    },
  });
  const list: StatusStation[] = [
    at('Clean', 0.4),
    at('Above', 1.5, { substance: 'so2', multiple: 1.6 }),
    at('Twice', 3, { substance: 'no2', multiple: 3.2 }),
    at('Worst', 7.5, { substance: 'no2', multiple: 52 }),
  ];
  const html = page(view(list, { readingsLegend: readingsLegend('5m') }));

  it('colours each concentration by the band of its multiple of ПДК м.р., and writes the multiple', () => {
    expect(['Clean', 'Above', 'Twice', 'Worst'].map((n) => band(html, n, 3))).toEqual([
      'b0',
      'b1',
      'b2',
      'b3',
    ]);
    expect(text(html, 'Above')[3]).toBe(`${Math.round(pm25 * 15) / 10} 1.5×`);
    expect(text(html, 'Clean')[4]).toBe(`${Math.round(pm10 * 5) / 10} 0.50×`);
    expect(band(html, 'Clean', 4)).toBe('b0');
  });

  it('names the substance standing highest against its norm, gases included', () => {
    expect(text(html, 'Above')[5]).toBe('SO₂ 1.6×');
    expect(text(html, 'Worst')[5]).toBe('NO₂ 52.0×');
    expect(band(html, 'Worst', 5)).toBe('b3');
    expect(text(html, 'Clean')[5]).toBe('–');
  });

  it('sorts by the value, not by its text', () => {
    expect(html).toContain(`data-v="${Math.round(pm25 * 75) / 10}"`);
    expect(html).toContain('data-v="52"');
  });

  it('explains the colours in a legend and says what mean a reading is', () => {
    expect(html).toContain(
      '<span class="b0">≤ 1</span> <span class="b1">1–2</span> <span class="b2">2–5</span> <span class="b3">&gt; 5</span>',
    );
    expect(html).toMatch(
      /latest row, a 5-minute mean; ПДК м.р. applies to 20-minute means, so a multiple above 1/,
    );
    const twenty = page(view(list, { readingsLegend: readingsLegend('20m') }));
    expect(twenty).toMatch(/latest row, a 20-minute mean, the averaging period of ПДК м.р./);
    expect(page(view(list, { readingsLegend: readingsLegend('1h') }))).toMatch(/an hourly mean;/);
    expect(page(view(list))).not.toContain('class="legend"');
  });

  it('styles the bands in the page’s own stylesheet, which the CSP allows by hash', () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    for (const b of ['b0', 'b1', 'b2', 'b3']) expect(style).toMatch(new RegExp(`\\.${b}\\{background:#`));
    expect(STATUS_PAGE_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(html).not.toMatch(/ style="/);
  });
});

describe('control characters from outside', () => {
  it('never reach the page: station text is cleaned when read, a failure message when shown', () => {
    const list = parseStationList([{ id: 7, name: 'NUL\u0000 CR\r ESC\u001b[2J end', isOnline: false }]);
    if (!list.ok) throw new Error(list.message);
    const failed = stationList({
      lastAttempt: { atMs: NOW, durationMs: 5, reason: 'invalid_payload', message: 'row 3: \u0000\r\u0085x' },
      consecutiveFailures: 1,
    });
    const html = page(view(list.value.stations, { collectors: [failed] }));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters this test looks for
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(rows(html)).toEqual([[7, 'NUL  CR  ESC [2J end']]);
  });
});
