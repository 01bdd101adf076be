// Every query of the dashboards and every rule, run by a real Prometheus that scrapes the real exporter fed by the
// simulator. An empty answer fails: it is how a misspelt metric or label shows, since PromQL does not complain.
// The exporter's scrape is extended by a fixture of readings series (fixtures/readings.prom, for demo stations)
// until the exporter serves readings itself; both come from one target, so they join as they will then.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/demo/simulator.js';
import { demoPosts } from '../../src/demo/stations.js';
import { type ExporterProcess, startExporterProcess } from '../support/exporter-process.js';
import {
  prometheusPath,
  type RunningPrometheus,
  type Sample,
  startPrometheus,
} from '../support/prometheus.js';
import { checkMetrics } from '../support/promtool.js';
import { type ReadingsFixture, startReadingsFixture } from '../support/readings-fixture.js';
import {
  alertingRules,
  labelValuesQuery,
  loadDashboards,
  loadRules,
  panelQueries,
  RULES_FILE,
  recordingRules,
  substitute,
  variableQuery,
} from './model.js';
import { comparisonOperand } from './promql.js';

const KEY = 'live-test-key';
const JOB = 'cityair';
const FLIPPED_ID = 1000;
const posts = demoPosts();
const MOSCOW = 'Europe/Moscow';
const dashboards = loadDashboards();
const rules = loadRules();
const READINGS = readFileSync(new URL('fixtures/readings.prom', import.meta.url), 'utf8');
// The Moscow station of the fixture with every substance, and its values there.
const MOSCOW_ID = '1170';

// What Grafana puts in place of its variables: "All" (the .* of allValue) and one selected value each.
function variableSets(instance: string): Record<string, Record<string, string>> {
  const builtins = {
    // Grafana: max(4 × scrape interval, $__interval + scrape interval) with a 1 s scrape interval.
    $__rate_interval: '4s',
    $__interval: '1s',
    $__range: '1h',
  };
  return {
    all: { ...builtins, $job: JOB, $instance: '.*', $tz: '.*' },
    selected: { ...builtins, $job: JOB, $instance: instance, $tz: MOSCOW },
  };
}

describe.skipIf(!prometheusPath())('dashboards and rules against a real Prometheus', () => {
  let sim: Simulator;
  let exporter: ExporterProcess;
  let readings: ReadingsFixture;
  let prom: RunningPrometheus;
  let instance: string;

  beforeAll(async () => {
    sim = await startSimulator({ posts, apiKey: KEY });
    exporter = await startExporterProcess({
      args: [`--upstream.url=${sim.baseUrl}`, '--upstream.min-interval=0s'],
      env: { CITYAIR_API_KEY: KEY },
    });
    readings = await startReadingsFixture({ exporterUrl: exporter.url, exposition: READINGS });
    instance = new URL(readings.url).host;
    prom = await startPrometheus({
      scrapeConfigs: [{ job_name: JOB, static_configs: [{ targets: [instance] }] }],
      ruleFiles: [RULES_FILE],
    });
    await prom.waitForTargetsUp();
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
    await readings?.close();
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

  it('serves readings of demo stations only, in the exposition format promtool accepts', () => {
    const ids = new Set([...READINGS.matchAll(/\bid="(\d+)"/g)].map((m) => Number(m[1])));
    expect(ids.size).toBeGreaterThan(2);
    expect([...ids].filter((id) => !posts.some((p) => p.id === id))).toEqual([]);
    const lint = checkMetrics(READINGS);
    if (!lint) return;
    // The one finding is the contract's own name: concentrations are in µg/m³ on purpose (grams give 1e-6).
    expect(lint.findings).toBe(
      'cityair_concentration_micrograms_per_cubic_meter use base unit "grams" instead of "micrograms"',
    );
  });

  it('shows the readings of a station in the units of the air-quality dashboard', async () => {
    const only = async (title: string): Promise<number | undefined> => {
      const [series] = await panelValues(prom, 'cityair-air-quality', title, 'selected', instance);
      return series?.find((s) => s.metric.id === MOSCOW_ID)?.value;
    };
    expect(await only('Relative humidity')).toBeCloseTo(81, 6);
    expect(await only('Atmospheric pressure')).toBeCloseTo(989.916, 6);
    expect(await only('Temperature')).toBe(-4.2);
    expect(await only('PM2.5')).toBe(18.4);
    expect(await only('CO')).toBe(410);
    const age = await only('Reading age');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(600);
  });

  it('names the stations of the readings and lists online stations without readings', async () => {
    const [ages] = await panelValues(prom, 'cityair-air-quality', 'Latest readings', 'all', instance);
    const withReadings = new Set(READINGS.match(/\bid="\d+"/g));
    expect(ages?.map((s) => s.metric.name).sort()).toEqual(
      posts
        .filter((p) => withReadings.has(`id="${p.id}"`))
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
        .filter((p) => !withReadings.has(`id="${p.id}"`))
        .map((p) => String(p.id))
        .sort(),
    );
  });

  it('records a data age of a few seconds while the API answers', async () => {
    const [age] = await prom.query('job_instance:cityair_data_age:seconds');
    expect(age?.value).toBeGreaterThanOrEqual(0);
    expect(age?.value).toBeLessThan(10);
  });

  it.each(alertingRules(rules).map((a) => [a.alert, comparisonOperand(a.expr)]))(
    '%s reads series that exist (%s)',
    async (_name, operand) => {
      expect(operand).not.toBe('');
      expect((await prom.query(operand)).length).toBeGreaterThan(0);
    },
  );

  it('fires none of the alerts while everything is healthy', async () => {
    const active = await prom.alerts();
    expect(active.filter((a) => a.state === 'firing').map((a) => a.labels.alertname)).toEqual([]);
  });
});

async function panelValues(
  prom: RunningPrometheus,
  uid: string,
  title: string,
  set: string,
  instance: string,
): Promise<Sample[][]> {
  const d = dashboards.find((x) => x.model.uid === uid);
  const queries = d ? panelQueries(d).filter((q) => q.panel === title) : [];
  if (queries.length === 0) throw new Error(`no panel "${title}" in ${uid}`);
  const values = variableSets(instance)[set] ?? {};
  return Promise.all(queries.map((q) => prom.query(substitute(q.expr, values))));
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
