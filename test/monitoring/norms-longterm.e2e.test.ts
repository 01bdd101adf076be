// The annual panel of the air-quality dashboard against a long-term store: a real VictoriaMetrics holding a year of
// readings, queried with the panel's own expression. The panel computes the annual mean in its query (no recording
// rule sees a year in a Prometheus that keeps 15 days), so a store that holds the year must answer it as it is;
// and it shows a station only once enough days of the year hold its readings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { normValue } from '../../src/norms/lookup.js';
import { COVERAGE } from '../../src/norms/table.js';
import { binaryPath, type Daemon, startVictoriaMetrics, waitFor } from '../support/daemon.js';
import { loadDashboards, panelQueries, substitute } from './model.js';

const TITLE = 'Multiple of ПДК с.г. and of the WHO annual guideline (365-day mean)';
const victoriaMetrics = binaryPath('victoria-metrics', 'victoria-metrics');
const JOB = 'cityair';
const INSTANCE = 'exporter:9610';
const STATION = { id: '1068', name: 'Норильск, ЖК "Северное сияние", корп. 4', tz: 'Asia/Krasnoyarsk' };
// Read on one day fewer than the annual mean needs.
const SHORT = { id: '1170', name: 'Москва, Тверская ул., 7', tz: 'Europe/Moscow' };
const DAY_MS = 86_400_000;
// A reading a day, on exactly as many of the past days as the annual mean needs (none today, a day not over):
// NO₂ alternating between 30 and 50 µg/m³ (mean 40 over an even number of days), PM2.5 at 20.
const DAYS = COVERAGE['1y'].atLeast;
const no2 = (day: number): number => (day % 2 === 0 ? 30 : 50);
const PM25 = 20;
// On its last days the station was read every second for a minute, at 200 µg/m³ of PM2.5: each day still weighs
// one day in the year's mean, not sixty readings.
const DENSE_DAYS = 3;
const DENSE_PM25 = 200;
const PM25_MEAN = ((DAYS - DENSE_DAYS) * PM25 + DENSE_DAYS * DENSE_PM25) / DAYS;

/** Sixty times a second apart within the UTC day of `t`: the year is sliced into UTC days. */
function aMinuteOfReadings(t: number): number[] {
  const sinceMidnight = t % DAY_MS;
  const step = sinceMidnight < 3_600_000 ? 1000 : -1000;
  return Array.from({ length: 60 }, (_, i) => t + i * step);
}

const result = z.object({
  status: z.literal('success'),
  data: z.object({
    result: z.array(
      z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) }),
    ),
  }),
});

function importText(nowMs: number): string {
  return [stationText(STATION, DAYS, nowMs), stationText(SHORT, DAYS - 1, nowMs)].join('');
}

function stationText(station: typeof STATION, days: number, nowMs: number): string {
  const labels = (extra: string) => `job="${JOB}",instance="${INSTANCE}",id="${station.id}"${extra}`;
  const lines: string[] = [];
  for (let day = days; day >= 1; day--) {
    const t = nowMs - day * DAY_MS;
    lines.push(
      `cityair_concentration_micrograms_per_cubic_meter{${labels(',substance="no2"')}} ${no2(day)} ${t}`,
    );
    const pm25 = `cityair_concentration_micrograms_per_cubic_meter{${labels(',substance="pm2.5"')}}`;
    if (station === STATION && day <= DENSE_DAYS)
      for (const at of aMinuteOfReadings(t)) lines.push(`${pm25} ${DENSE_PM25} ${at}`);
    else lines.push(`${pm25} ${PM25} ${t}`);
  }
  // Today's station list: the names come from it, as they do on the live dashboard.
  const info = `,name="${station.name.replace(/"/g, '\\"')}",description="",tz="${station.tz}"`;
  lines.push(`cityair_station_info{${labels(info)}} 1 ${nowMs}`);
  return `${lines.join('\n')}\n`;
}

describe.skipIf(!victoriaMetrics)('the annual panel on VictoriaMetrics', () => {
  let daemon: Daemon;
  let url: string;
  const nowMs = Date.now() - 60_000;

  beforeAll(async () => {
    ({ url, daemon } = await startVictoriaMetrics(
      victoriaMetrics ?? 'victoria-metrics',
      '2y',
      'cityair-victoria-',
    ));
    const imported = await fetch(`${url}/api/v1/import/prometheus`, {
      method: 'POST',
      body: importText(nowMs),
    });
    expect(imported.status).toBe(204);
  }, 30_000);

  afterAll(async () => daemon?.stop());

  it('gives a station read on enough days the year’s mean as a multiple of ПДК с.г. and of the WHO annual guideline, and one read on a day fewer nothing', async () => {
    const dashboard = loadDashboards().find((d) => d.model.uid === 'cityair-air-quality');
    const [query] = dashboard ? panelQueries(dashboard).filter((q) => q.panel === TITLE) : [];
    if (!query) throw new Error(`no panel "${TITLE}"`);
    const expr = substitute(query.expr, { $job: JOB, $instance: '.*', $tz: '.*' });
    const cells = await waitFor(
      'the imported year',
      async () => {
        const answer = await fetch(
          `${url}/api/v1/query?${new URLSearchParams({ query: expr, time: String(nowMs / 1000) })}`,
        );
        const rows = result.parse(await answer.json()).data.result;
        return rows.length === 4 ? rows : undefined;
      },
      20_000,
      daemon,
    );
    const value = (norm: string) => Number(cells.find((c) => c.metric.norm === norm)?.value[1]);
    const mean = (no2(0) + no2(1)) / 2;
    expect(value('NO₂ ПДК с.г.')).toBeCloseTo(mean / (normValue('no2', 'pdk-annual') ?? Number.NaN), 2);
    expect(value('NO₂ WHO annual')).toBeCloseTo(mean / (normValue('no2', 'who-annual') ?? Number.NaN), 2);
    const pm25 = (family: 'pdk-annual' | 'who-annual') =>
      PM25_MEAN / (normValue('pm2.5', family) ?? Number.NaN);
    expect(value('PM2.5 ПДК с.г.')).toBeCloseTo(pm25('pdk-annual'), 6);
    expect(value('PM2.5 WHO annual')).toBeCloseTo(pm25('who-annual'), 6);
    expect(new Set(cells.map((c) => c.metric.name))).toEqual(new Set([STATION.name]));
    // The other station's readings are there, on a day fewer.
    const held = await fetch(
      `${url}/api/v1/query?${new URLSearchParams({
        query: `count_over_time(cityair_concentration_micrograms_per_cubic_meter{id="${SHORT.id}", substance="no2"}[1y])`,
        time: String(nowMs / 1000),
      })}`,
    );
    expect(Number(result.parse(await held.json()).data.result[0]?.value[1])).toBe(DAYS - 1);
  });
});
