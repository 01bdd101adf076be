// Every query of the dashboards, every rule and every query of the documentation, run by a real Prometheus that scrapes the real exporter fed by the
// simulator. An empty answer fails: it is how a misspelt metric or label shows, since PromQL does not complain.
// The readings collector is on, so the air-quality panels and the readings rules read what the exporter made of
// the simulator's answers, and their values are checked against the demo rows those answers were built from.
// The norms' means count only once enough of their window holds readings, so Prometheus starts on history the
// backfill read from the same simulator, in the scrape's own series: a day and more of every station, and most of
// a year of daily rows of one station, which alone then has annual means.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { meanRecord } from '../../scripts/norms-names.js';
import {
  DEMO_SMELTER_ID,
  type DemoRow,
  demoHasNoReadings,
  demoReadingsAnswer,
  demoRow,
  type ReadingsQuery,
} from '../../src/demo/readings.js';
import { demoStations } from '../../src/demo/stations.js';
import { normValue } from '../../src/norms/lookup.js';
import { COVERAGE } from '../../src/norms/table.js';
import { backfillBlocks } from '../support/backfill.js';
import { type ExporterProcess, startExporterProcess } from '../support/exporter-process.js';
import { get } from '../support/http.js';
import {
  prometheusPath,
  type RunningPrometheus,
  type Sample,
  startPrometheus,
} from '../support/prometheus.js';
import { expectOnlyKnownLint, promtoolPath } from '../support/promtool.js';
import { type Simulator, startSimulator } from '../support/simulator.js';
import { allDocumentedQueries } from './doc-queries.js';
import {
  alertingRules,
  labelValuesQuery,
  loadAllRules,
  loadDashboards,
  loadRules,
  NORMS_RULES_FILE,
  panelQueries,
  RULES_FILE,
  recordingRules,
  rulesAtGlobalInterval,
  substitute,
  variableQuery,
} from './model.js';
import { comparisonOperand, parsePromql } from './promql.js';

const KEY = 'live-test-key-51b9e2f3';
const JOB = 'cityair';
const FLIPPED_ID = 1000;
const posts = demoStations();
const MOSCOW = 'Europe/Moscow';
const dashboards = loadDashboards();
const rules = loadAllRules();
// A Moscow station with gas sensors, whose values are checked in the dashboard's units.
const MOSCOW_ID = 1170;
// The demo never measures H2S (always null), and only that gives the "Other substances" panel a series: here the
// Moscow station above reports it. Another online Moscow station answers without any row, so the list of online
// stations without readings has an entry with the time zone selected too. Everything else is the demo's answer.
const H2S_MG_PER_M3 = 0.0012;
const NO_ROWS_ID = 1340;
const MM_HG_IN_PA = 133.322;
// One station breathes NO₂ at 60 times its ПДК м.р., past every norm and every ЭВЗ criterion, and H₂S at 10 times
// its ПДК м.р., a substance with no daily or WHO value: each alert of the norms must hold there, and no rule may
// judge H₂S by a norm it does not have.
const POLLUTED_ID = 1034;
const POLLUTED_MULTIPLE = 60;
const NO2_SINGLE = normValue('no2', 'pdk-single') ?? Number.NaN;
const NO2_DAILY = normValue('no2', 'pdk-daily') ?? Number.NaN;
const H2S_SINGLE = normValue('h2s', 'pdk-single') ?? Number.NaN;
/** Whether an alert's condition holds for that H₂S; the ЭВЗ criteria start above 10 times. */
const H2S_JUDGED: Readonly<Record<string, boolean>> = {
  CityAirPdkSingleExceeded: true,
  CityAirPdkDailyExceeded: false,
  CityAirWhoGuidelineExceeded: false,
  CityAirExtremelyHighPollution: false,
};

function readingsAnswer(id: number, nowMs: number, query: ReadingsQuery): unknown {
  const answer = demoReadingsAnswer(id, nowMs, query);
  if (id === NO_ROWS_ID) return { ...answer, data: [] };
  if (id === MOSCOW_ID) return { ...answer, data: answer.data.map((r) => withH2s(r)) };
  if (id === POLLUTED_ID) return { ...answer, data: answer.data.map((r) => polluted(r)) };
  return answer;
}

function polluted(row: DemoRow): DemoRow {
  return { ...row, no2: (POLLUTED_MULTIPLE * NO2_SINGLE) / 1000, h2s: (10 * H2S_SINGLE) / 1000 };
}

function withH2s(row: DemoRow): DemoRow {
  return { ...row, h2s: H2S_MG_PER_M3 };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const FIVE_MINUTES_MS = 300_000;
// Two hours more than the longest short-term mean, so that every hour of its window holds rows from the start.
const RECENT_MS = 26 * HOUR_MS;
// The station with a year of daily rows, a few more days than the annual mean needs. It is in Moscow, so the
// annual panel has a row with the time zone selected too.
const YEAR_STATION = MOSCOW_ID;
const YEAR_DAYS = COVERAGE['1y'].atLeast + 10;

/** Backfills of the simulator's history as the scrape's own series (the exporter's job and instance labels). */
function historyRuns(simUrl: string, instance: string, nowMs: number): string[][] {
  const recentFrom = Math.floor((nowMs - RECENT_MS) / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
  const common = [`--upstream.url=${simUrl}`, '--label', `job=${JOB}`, '--label', `instance=${instance}`];
  const iso = (ms: number) => new Date(ms).toISOString();
  return [
    [...common, `--from=${iso(recentFrom)}`],
    [
      ...common,
      '--measurements.interval=1d',
      `--measurements.stations=${YEAR_STATION}`,
      `--from=${iso(nowMs - YEAR_DAYS * DAY_MS)}`,
      `--to=${iso(recentFrom)}`,
    ],
  ];
}

const hasRows = (id: number): boolean => !demoHasNoReadings(id) && id !== NO_ROWS_ID;

function field(row: DemoRow, name: string): number {
  const value = row[name];
  if (typeof value !== 'number') throw new Error(`demo row of ${row.postId} has no number ${name}`);
  return value;
}

// What Grafana puts in place of its variables: "All" (the .* of allValue) and one selected value each.
function variableSets(instance: string): Record<string, Record<string, string>> {
  const builtins = {
    // Grafana: max(4 × scrape interval, $__interval + scrape interval) with a 1 s scrape interval.
    $__rate_interval: '4s',
    $__interval: '1s',
    $__range: '1h',
    // The air-quality dashboard's "Row interval", at its default.
    $lookback: '5m',
  };
  return {
    all: { ...builtins, $job: JOB, $instance: '.*', $tz: '.*' },
    selected: { ...builtins, $job: JOB, $instance: instance, $tz: MOSCOW },
  };
}

describe.skipIf(!prometheusPath() || !promtoolPath())(
  'dashboards and rules against a real Prometheus',
  () => {
    let sim: Simulator;
    let exporter: ExporterProcess;
    let prom: RunningPrometheus;
    let instance: string;

    beforeAll(async () => {
      sim = await startSimulator({ posts, apiKey: KEY, readings: readingsAnswer });
      exporter = await startExporterProcess({
        args: [
          `--upstream.url=${sim.baseUrl}`,
          '--upstream.min-interval=0s',
          '--collector.measurements',
          '--measurements.refresh-interval=1m',
        ],
        env: { CITYAIR_API_KEY: KEY },
      });
      instance = new URL(exporter.url).host;
      const history = await backfillBlocks(historyRuns(sim.baseUrl, instance, Date.now()), {
        CITYAIR_API_KEY: KEY,
      });
      prom = await startPrometheus({
        scrapeConfigs: [{ job_name: JOB, static_configs: [{ targets: [instance] }] }],
        ruleFiles: [
          RULES_FILE,
          // The annual group runs hourly; here at the test's pace, so that its series exist within seconds.
          {
            name: 'cityair-norms-rules.yml',
            content: stringify(rulesAtGlobalInterval(loadRules(NORMS_RULES_FILE))),
          },
        ],
        blocksFrom: history,
        // The default 15 days would delete the year's blocks at once.
        extraArgs: ['--storage.tsdb.retention.time=2y'],
      });
      await prom.waitForTargetsUp();
      // The first round of readings follows the first station list; every station with rows then has a reading.
      await prom.waitForQuery(
        'count(cityair_measurement_timestamp_seconds)',
        (s) => s[0]?.value === posts.filter((p) => hasRows(p.id)).length,
      );
      // rate() needs two samples in its window; the state-duration column needs history before a change.
      await prom.waitForQuery('count_over_time(cityair_up[1m])', (s) => (s[0]?.value ?? 0) >= 4);
      sim.setPosts(posts.map((p) => (p.id === FLIPPED_ID ? { ...p, isOnline: !p.isOnline } : p)));
      await prom.waitForQuery(
        `count_over_time((cityair_station_online{id="${FLIPPED_ID}"} == 0)[1m:1s])`,
        (s) => (s[0]?.value ?? 0) >= 2,
      );
    }, 60_000);

    afterAll(async () => {
      await prom?.stop();
      await exporter?.stop();
      await sim?.close();
    });

    const queries = dashboards.flatMap((d) =>
      panelQueries(d).flatMap((q) =>
        ['all', 'selected'].map(
          (set) => [`${q.dashboard}: ${q.panel} ${q.refId} (${set})`, q.expr, set] as const,
        ),
      ),
    );

    it.each(queries)('%s returns data', async (_name, expr, set) => {
      const values = variableSets(instance)[set] ?? {};
      const result = await prom.query(substitute(expr, values));
      expect(result.length, substitute(expr, values)).toBeGreaterThan(0);
    });

    it('fills the variables with the job, the instance and the time zones', async () => {
      const values = variableSets(instance).all ?? {};
      const options = new Map<string, Set<string>>();
      for (const v of dashboards.flatMap((d) => d.model.templating.list)) {
        const query = variableQuery(v);
        const lv = query === undefined ? undefined : labelValuesQuery(query);
        if (!lv) continue;
        const series = await prom.query(substitute(lv.selector, values));
        options.set(v.name, new Set(series.map((s) => s.metric[lv.label] ?? '')));
      }
      expect([...(options.get('job') ?? [])]).toEqual([JOB]);
      expect([...(options.get('instance') ?? [])]).toEqual([instance]);
      expect([...(options.get('tz') ?? [])].sort()).toEqual(
        [...new Set(posts.map((p) => p.geo?.timeZoneIana))].sort(),
      );
    });

    it('shows the counts the CityAir API reported', async () => {
      const offline = posts.filter((p) => (p.id === FLIPPED_ID ? p.isOnline : !p.isOnline)).length;
      const moscow = posts.filter((p) => p.geo?.timeZoneIana === MOSCOW).length;
      const stat = async (title: string, set: string): Promise<number | undefined> =>
        (await panelValue(prom, 'cityair-stations', title, set, instance))[0]?.value;

      expect(await stat('Stations', 'all')).toBe(posts.length);
      expect(await stat('Online', 'all')).toBe(posts.length - offline);
      expect(await stat('Offline', 'all')).toBe(offline);
      expect(await stat('Share online', 'all')).toBeCloseTo((posts.length - offline) / posts.length, 6);
      expect(await stat('Stations', 'selected')).toBe(moscow);
    });

    it('places every station on the map', async () => {
      const [online, latitudes, longitudes] = await panelValues(
        prom,
        'cityair-stations',
        'Station map',
        'all',
        instance,
      );
      expect(online?.length).toBe(posts.length);
      const lat = new Map(latitudes?.map((s) => [s.metric.id, s.value]));
      const lon = new Map(longitudes?.map((s) => [s.metric.id, s.value]));
      for (const p of posts) {
        expect(lat.get(String(p.id))).toBe(p.geo?.latitude);
        expect(lon.get(String(p.id))).toBe(p.geo?.longitude);
      }
    });

    it('shows a station that just changed state as in that state for less time than the others', async () => {
      const [, durations] = await panelValues(prom, 'cityair-stations', 'Station list', 'all', instance);
      const byId = new Map(durations?.map((s) => [s.metric.id, s.value]));
      expect(byId.size).toBe(posts.length);
      const flipped = byId.get(String(FLIPPED_ID)) ?? Number.NaN;
      const steady = Math.min(...[...byId].filter(([id]) => id !== String(FLIPPED_ID)).map(([, v]) => v));
      expect(flipped).toBeGreaterThanOrEqual(0);
      expect(flipped).toBeLessThan(steady);
    });

    it.each(recordingRules(rules).map((r) => [r.record]))('records %s', async (record) => {
      const result = await prom.waitForQuery(`${record}{job="${JOB}"}`, (s) => s.length > 0, 10_000);
      expect([...new Set(result.map((s) => s.metric.instance))]).toEqual([instance]);
    });

    // As a reader pastes them; the documentation's placeholder for the exporter's address is this exporter.
    it.each(allDocumentedQueries().map((q) => [q.where, q.expr]))(
      'runs the query of %s, and each of its selectors finds series: %s',
      async (_where, documented) => {
        const expr = documented.replaceAll('exporter:9610', instance);
        await prom.query(expr);
        for (const s of parsePromql(expr).selectors) {
          const found = await prom.waitForQuery(s.text, (r) => r.length > 0, 10_000).catch(() => []);
          expect(found.length, s.text).toBeGreaterThan(0);
        }
      },
    );

    it('serves readings of listed stations only, in the exposition format promtool accepts', async () => {
      const listed = new Set(posts.map((p) => p.id));
      expect(sim.readingsLog().length).toBeGreaterThan(0);
      expect(sim.readingsLog().filter((id) => !listed.has(id))).toEqual([]);
      const { text } = await get(`${exporter.url}/metrics`);
      const ids = new Set(
        [...text.matchAll(/^cityair_measurement_timestamp_seconds\{id="(\d+)"\}/gm)].map((m) => Number(m[1])),
      );
      expect([...ids].sort()).toEqual(
        posts
          .filter((p) => hasRows(p.id))
          .map((p) => p.id)
          .sort(),
      );
      expectOnlyKnownLint(text);
    });

    it('shows the readings of a station in the units of the air-quality dashboard', async () => {
      // Every query at the time of one scrape, so that a round of readings in between cannot mix two rows.
      const [scrape] = await prom.query(`timestamp(cityair_up{job="${JOB}"})`);
      const at = scrape?.value ?? Number.NaN;
      const [stamp] = await prom.query(`cityair_measurement_timestamp_seconds{id="${MOSCOW_ID}"}`, at);
      const rowAt = stamp?.value ?? Number.NaN;
      const row = withH2s(demoRow(MOSCOW_ID, rowAt * 1000));
      const only = async (title: string, query = 0): Promise<number | undefined> => {
        const all = await panelValues(prom, 'cityair-air-quality', title, 'selected', instance, at);
        return all[query]?.find((s) => s.metric.id === String(MOSCOW_ID))?.value;
      };
      // The simulator sends %, mm Hg and mg/m³; the exporter stores ratios, Pa and µg/m³; the panels show %, hPa
      // and µg/m³ again.
      expect(await only('Relative humidity')).toBeCloseTo(field(row, 'humidity'), 6);
      expect(await only('Atmospheric pressure')).toBeCloseTo((field(row, 'pressure') * MM_HG_IN_PA) / 100, 6);
      expect(await only('Temperature')).toBeCloseTo(field(row, 'temperature'), 6);
      expect(await only('PM2.5')).toBeCloseTo(field(row, 'pm2') * 1000, 6);
      expect(await only('CO')).toBeCloseTo(field(row, 'co') * 1000, 6);
      expect(await only('Other substances')).toBeCloseTo(H2S_MG_PER_M3 * 1000, 6);
      expect(await only('Latest readings', 7)).toBeCloseTo(field(row, 'humidity'), 6);
      const aqi = row.aqi as { cityairAqi: { value: number } };
      expect(await only('AQI over time')).toBe(aqi.cityairAqi.value);
      expect(await only('Reading age')).toBeCloseTo(at - rowAt, 3);
    });

    it('names the stations of the readings and lists online stations without readings', async () => {
      const [ages] = await panelValues(prom, 'cityair-air-quality', 'Latest readings', 'all', instance);
      expect(ages?.map((s) => s.metric.name).sort()).toEqual(
        posts
          .filter((p) => hasRows(p.id))
          .map((p) => p.name)
          .sort(),
      );
      const [missing] = await panelValues(
        prom,
        'cityair-air-quality',
        'Online stations without readings',
        'all',
        instance,
      );
      const online = posts.filter((p) => (p.id === FLIPPED_ID ? !p.isOnline : p.isOnline));
      expect(missing?.map((s) => s.metric.id).sort()).toEqual(
        online
          .filter((p) => !hasRows(p.id))
          .map((p) => String(p.id))
          .sort(),
      );
    });

    it('records a data age of a few seconds while the API answers', async () => {
      const [age] = await prom.query('job_instance:cityair_data_age:seconds');
      expect(age?.value).toBeGreaterThanOrEqual(0);
      expect(age?.value).toBeLessThan(10);
    });

    // The record's series exist only with the record on, which this exporter is not: its alert's series are
    // checked against the record's own metrics (test/record/metrics.test.ts).
    it.each(
      alertingRules(rules)
        .filter((a) => !a.expr.includes('cityair_record_'))
        .map((a) => [`${a.alert} ${a.labels?.criterion ?? ''}`, comparisonOperand(a.expr)]),
    )('%s reads series that exist (%s)', async (_name, operand) => {
      expect(operand).not.toBe('');
      expect((await prom.query(operand)).length).toBeGreaterThan(0);
    });

    it.each(
      alertingRules(loadRules(NORMS_RULES_FILE)).map(
        (a) => [`${a.alert} ${a.labels?.criterion ?? ''}`, a] as const,
      ),
    )('%s holds for the polluted station, and judges H₂S only by a norm it has', async (_name, a) => {
      const hits = (await prom.query(a.expr)).filter((s) => s.metric.id === String(POLLUTED_ID));
      expect(hits.find((s) => s.metric.substance === 'no2')?.value, a.expr).toBeGreaterThan(1);
      expect(hits.some((s) => s.metric.substance === 'h2s')).toBe(H2S_JUDGED[a.alert]);
    });

    it('states the polluted station’s NO₂ as 60 × ПДК м.р. on the dashboard, and the demo smelter above it', async () => {
      const [cells] = await panelValues(
        prom,
        'cityair-air-quality',
        'Multiple of ПДК м.р. (20-minute mean)',
        'all',
        instance,
      );
      const cell = (id: number, substance: string) => {
        const name = posts.find((p) => p.id === id)?.name;
        return cells?.find((s) => s.metric.name === name && s.metric.substance === substance)?.value;
      };
      expect(cell(POLLUTED_ID, 'no2')).toBeCloseTo(POLLUTED_MULTIPLE, 6);
      expect(cell(DEMO_SMELTER_ID, 'so2')).toBeGreaterThan(1);
      expect(cell(POLLUTED_ID, 'h2s')).toBeCloseTo(10, 6);
      // H₂S has a ПДК м.р. but no ПДК с.с. and no WHO guideline: no multiple of those exists for it.
      const daily = await prom.query(
        `job_instance_id_substance:cityair_concentration_pdk_daily:ratio{substance="h2s"}`,
      );
      const who = await prom.query(
        `job_instance_id_substance:cityair_concentration_who_short_term:ratio{substance="h2s"}`,
      );
      expect([...daily, ...who]).toEqual([]);
      // A day of the history's rows and the scrapes since, all at 60 × ПДК м.р.: the daily multiple follows.
      const [no2Daily] = await prom.query(
        `job_instance_id_substance:cityair_concentration_pdk_daily:ratio{id="${POLLUTED_ID}", substance="no2"}`,
      );
      expect(no2Daily?.value).toBeCloseTo((POLLUTED_MULTIPLE * NO2_SINGLE) / NO2_DAILY, 6);
    });

    it('has the short-term means of every station from the history, and annual means for the station with a year', async () => {
      const stations = async (record: string) =>
        new Set((await prom.query(`${record}{job="${JOB}"}`)).map((s) => Number(s.metric.id)));
      const withRows = posts.filter((p) => hasRows(p.id)).map((p) => p.id);
      expect([...(await stations(meanRecord('24h')))].sort()).toEqual(withRows.sort());
      expect(await stations(meanRecord('1y'))).toEqual(new Set([YEAR_STATION]));
    });

    it('fires none of the alerts while everything is healthy', async () => {
      const active = await prom.alerts();
      expect(active.filter((a) => a.state === 'firing').map((a) => a.labels.alertname)).toEqual([]);
    });
  },
);

async function panelValues(
  prom: RunningPrometheus,
  uid: string,
  title: string,
  set: string,
  instance: string,
  atSeconds?: number,
): Promise<Sample[][]> {
  const d = dashboards.find((x) => x.model.uid === uid);
  const queries = d ? panelQueries(d).filter((q) => q.panel === title) : [];
  if (queries.length === 0) throw new Error(`no panel "${title}" in ${uid}`);
  const values = variableSets(instance)[set] ?? {};
  return Promise.all(queries.map((q) => prom.query(substitute(q.expr, values), atSeconds)));
}

async function panelValue(
  prom: RunningPrometheus,
  uid: string,
  title: string,
  set: string,
  instance: string,
): Promise<Sample[]> {
  return (await panelValues(prom, uid, title, set, instance))[0] ?? [];
}
