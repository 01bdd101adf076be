// The dashboards as an operator meets them: valid Grafana JSON, importable through the UI and by provisioning,
// and following the kit's conventions (data source variable, job/instance filters, units, descriptions).
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { normsOf } from '../../src/norms/lookup.js';
import { BAND_LIMITS, SUBSTANCE_NAMES } from '../../src/norms/table.js';
import { generateDashboardSchema, IMPORT_ENVELOPE_KEYS } from './grafana-schema.js';
import {
  type LoadedDashboard,
  loadDashboards,
  PARSE_STAND_INS,
  type Panel,
  panelQueries,
  substitute,
  variableQuery,
} from './model.js';
import { parsePromql } from './promql.js';

const dashboards = loadDashboards();
const byUid = (uid: string): LoadedDashboard => {
  const d = dashboards.find((x) => x.model.uid === uid);
  if (!d) throw new Error(`no dashboard with uid ${uid}`);
  return d;
};
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a JavaScript template.
const DATASOURCE_VARIABLE = '${datasource}';
// biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder Grafana's UI import replaces.
const DATASOURCE_INPUT = '${DS_PROMETHEUS}';
const DATASOURCE = { type: 'prometheus', uid: DATASOURCE_VARIABLE };
// Metrics whose series carry the station's time zone: the tz variable must filter them.
const TZ_METRICS = new Set(['cityair_station_online', 'cityair_station_info']);
// Dashboards of stations, with the time zone variable. On the air-quality one, a query that is about stations
// (not about the collector as a whole) joins the station metadata, which carries the filter.
const TZ_DASHBOARDS = ['cityair-stations', 'cityair-air-quality'];
const STATION_METRIC =
  /cityair_(concentration|temperature|relative_humidity|pressure|aqi|measurement_timestamp|station)_|:cityair_concentration/;

function storedModel(raw: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of IMPORT_ENVELOPE_KEYS) delete copy[key];
  return copy;
}

describe('dashboards against the schema of Grafana’s dashboard model', () => {
  let validate: ValidateFunction;
  beforeAll(async () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    validate = ajv.compile(await generateDashboardSchema());
  });

  it.each(dashboards.map((d) => [d.model.uid, d] as const))('%s is a valid dashboard', (_uid, d) => {
    const valid = validate(storedModel(d.raw));
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('rejects what Grafana would reject (the schema is not vacuous)', () => {
    const raw = storedModel(byUid('cityair-stations').raw);
    const panels = raw.panels as Record<string, unknown>[];
    const broken = { ...raw, panels: [{ ...panels[0], type: undefined, gridPos: { x: 'left' } }] };
    expect(validate(broken)).toBe(false);
    expect(validate({ ...raw, schemaVersion: undefined })).toBe(false);
  });
});

describe('import and provisioning', () => {
  it('has the stable uids the dashboards link to each other by', () => {
    const links: Record<string, string[]> = {
      'cityair-stations': ['cityair-exporter', 'cityair-air-quality'],
      'cityair-exporter': ['cityair-stations'],
      'cityair-air-quality': ['cityair-stations', 'cityair-exporter'],
    };
    expect(dashboards.map((d) => d.model.uid).sort()).toEqual(Object.keys(links).sort());
    for (const d of dashboards) {
      for (const other of links[d.model.uid] ?? []) expect(JSON.stringify(d.raw)).toContain(`/d/${other}/`);
    }
  });

  it.each(dashboards.map((d) => [d.model.uid, d] as const))(
    '%s asks for a Prometheus data source on UI import and uses it',
    (_uid, d) => {
      expect(d.model.__inputs).toEqual([
        expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
      ]);
      const ds = d.model.templating.list.find((v) => v.name === 'datasource');
      expect(ds?.current?.value).toBe(DATASOURCE_INPUT);
      // The import replaces ${DS_PROMETHEUS} only; nothing else may be left to substitute.
      const placeholders = new Set(JSON.stringify(d.raw).match(/\$\{DS_[A-Z_]+\}/g));
      expect([...placeholders]).toEqual([DATASOURCE_INPUT]);
    },
  );

  it.each(dashboards.map((d) => [d.model.uid, d] as const))(
    '%s lists every panel type it needs',
    (_uid, d) => {
      const required = new Set(d.model.__requires.filter((r) => r.type === 'panel').map((r) => r.id));
      expect([...new Set(d.model.panels.map((p) => p.type))].filter((t) => !required.has(t))).toEqual([]);
    },
  );
});

describe('variables', () => {
  it.each(dashboards.map((d) => [d.model.uid, d] as const))(
    '%s selects data source, job and instance',
    (_uid, d) => {
      const vars = new Map(d.model.templating.list.map((v) => [v.name, v]));
      expect(vars.get('datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
      expect(vars.get('job')).toMatchObject({ type: 'query', datasource: DATASOURCE });
      expect(vars.get('instance')).toMatchObject({
        type: 'query',
        datasource: DATASOURCE,
        multi: true,
        includeAll: true,
      });
      const instance = vars.get('instance');
      expect(instance && variableQuery(instance)).toContain('job=~"$job"');
    },
  );

  it.each(TZ_DASHBOARDS.map((uid) => [uid]))(
    '%s filters stations by time zone, several at once or all',
    (uid) => {
      const tz = byUid(uid).model.templating.list.find((v) => v.name === 'tz');
      expect(tz).toMatchObject({ type: 'query', datasource: DATASOURCE, multi: true, includeAll: true });
      // Stations without a time zone have tz="": only an explicit .* keeps them under "All".
      expect(tz?.allValue).toBe('.*');
      // The air-quality one reads cityair_station_info, which a backfilled range has too (the online state is not
      // backfilled).
      expect(tz && variableQuery(tz)).toMatch(/^label_values\(cityair_station_(online|info)\{.*\}, tz\)$/);
    },
  );
});

describe('panels', () => {
  const panels = dashboards.flatMap((d) =>
    d.model.panels.map((p) => [`${d.model.uid}: ${p.title}`, p] as const),
  );

  it('are the ones the monitoring kit promises', () => {
    const types = (uid: string): string[] => byUid(uid).model.panels.map((p) => `${p.type}:${p.title}`);
    expect(types('cityair-stations')).toEqual(
      expect.arrayContaining([
        'stat:Stations',
        'stat:Online',
        'stat:Offline',
        'stat:Share online',
        'geomap:Station map',
        'table:Station list',
        'state-timeline:Online / offline per station',
        'timeseries:Offline stations over time',
      ]),
    );
    const exprs = panelQueries(byUid('cityair-exporter'))
      .map((q) => q.expr)
      .join('\n');
    for (const metric of [
      'cityair_up',
      'job_instance:cityair_data_age:seconds',
      'cityair_last_refresh_duration_seconds',
      'cityair_upstream_requests_total',
      'cityair_upstream_request_failures_total',
      'cityair_stations_rejected',
      'scrape_duration_seconds',
      'process_resident_memory_bytes',
    ]) {
      expect(exprs).toContain(metric);
    }
  });

  it('the air-quality dashboard has the panels the readings call for', () => {
    expect(byUid('cityair-air-quality').model.panels.map((p) => `${p.type}:${p.title}`)).toEqual(
      expect.arrayContaining([
        'geomap:AQI map',
        'table:Latest readings',
        'timeseries:PM2.5',
        'timeseries:PM10',
        'timeseries:NO₂',
        'timeseries:SO₂',
        'timeseries:O₃',
        'timeseries:CO',
        'timeseries:Temperature',
        'timeseries:Relative humidity',
        'timeseries:Atmospheric pressure',
        'timeseries:Reading age',
        'table:Online stations without readings',
        'timeseries:Readings requests',
        'timeseries:Fields left out',
      ]),
    );
  });

  // Every substance panel, with the WHO short-term guideline of its substance (from the norms table).
  const WHO_2021 = [...normsOf('who-24h'), ...normsOf('who-8h')].map(
    (n) => [SUBSTANCE_NAMES[n.substance], n.substance, n.ugPerM3] as const,
  );
  const thresholdPanel = z.object({
    fieldConfig: z.object({
      defaults: z
        .object({
          unit: z.string(),
          thresholds: z.object({
            steps: z.array(z.object({ value: z.number().nullable(), color: z.string() })),
          }),
        })
        .passthrough(),
    }),
  });

  it('has a panel for every substance with a WHO short-term guideline', () => {
    expect(WHO_2021.map(([title]) => title)).toEqual(['PM2.5', 'PM10', 'NO₂', 'SO₂', 'CO', 'O₃']);
  });

  it.each(WHO_2021)(
    '%s turns red at the WHO guideline of its substance, in µg/m³',
    (title, substance, limit) => {
      const panel = byUid('cityair-air-quality').model.panels.find((p) => p.title === title);
      const { defaults } = thresholdPanel.parse(rawPanel('cityair-air-quality', title)).fieldConfig;
      expect(defaults.unit).toBe('conμgm3');
      expect(defaults.thresholds.steps.at(-1)).toEqual({ value: limit, color: 'red' });
      for (const t of panel?.targets ?? []) {
        const { selectors } = parsePromql(t.expr);
        expect(selectors[0]?.matchers, t.expr).toContainEqual({
          name: 'substance',
          op: '=',
          value: substance,
        });
      }
    },
  );

  it('shows humidity in percent and pressure in hectopascals', () => {
    const panel = (title: string) => byUid('cityair-air-quality').model.panels.find((p) => p.title === title);
    expect(panel('Relative humidity')?.fieldConfig?.defaults.unit).toBe('percent');
    expect(panel('Relative humidity')?.targets?.[0]?.expr).toMatch(
      /^100 \* last_over_time\(cityair_relative_humidity_ratio\{/,
    );
    expect(panel('Atmospheric pressure')?.fieldConfig?.defaults.unit).toBe('pressurehpa');
    expect(panel('Atmospheric pressure')?.targets?.[0]?.expr).toMatch(
      /^last_over_time\(cityair_pressure_pascals\{[^}]*\}\[\$lookback\]\) \/ 100 /,
    );
  });

  it.each([
    ['Multiple of ПДК м.р. (20-minute mean)', 'pdk_single'],
    ['Multiple of ПДК м.р. over time (20-minute mean)', 'pdk_single'],
    ['Multiple of ПДК с.с. (24-hour mean)', 'pdk_daily'],
    ['Multiple of the WHO guideline (24-hour mean; O₃ 8-hour mean)', 'who_short_term'],
    ['Multiple of ПДК с.г. and of the WHO annual guideline (365-day mean)', ''],
  ])('%s colours each station by the bands of Russian reports', (title, ratio) => {
    const panel = byUid('cityair-air-quality').model.panels.find((p) => p.title === title);
    const { defaults } = thresholdPanel.parse(rawPanel('cityair-air-quality', title)).fieldConfig;
    expect(defaults.thresholds.steps.map((s) => s.value)).toEqual([null, ...BAND_LIMITS]);
    expect(defaults.unit).toBe('suffix:×');
    const expr = panel?.targets?.map((t) => t.expr).join('\n') ?? '';
    if (ratio) expect(expr).toContain(`:cityair_concentration_${ratio}:ratio{`);
    // No rule holds the year: the query computes it, as the mean of the year's daily means.
    else
      expect(expr).toMatch(
        /avg_over_time\(avg_over_time\([^\]]+\[23h59m59s999ms\]\)\[364d23h59m59s999ms:1d\]\)/,
      );
  });

  it.each(panels)('%s has a description, a unit and the data source variable', (_name, p: Panel) => {
    expect(p.description?.trim().length ?? 0).toBeGreaterThan(20);
    expect(p.fieldConfig?.defaults.unit ?? '').not.toBe('');
    expect(p.datasource).toEqual(DATASOURCE);
    expect(p.targets?.length ?? 0).toBeGreaterThan(0);
    for (const t of p.targets ?? []) expect(t.datasource).toEqual(DATASOURCE);
  });

  it.each(dashboards.map((d) => [d.model.uid, d] as const))(
    '%s has unique ids and no overlapping panels',
    (_uid, d) => {
      const ids = d.model.panels.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      const cells = new Map<string, string>();
      for (const p of d.model.panels) {
        const { x, y, w, h } = p.gridPos;
        expect(x + w).toBeLessThanOrEqual(24);
        for (let i = x; i < x + w; i++) {
          for (let j = y; j < y + h; j++) {
            expect(cells.get(`${i},${j}`), `${p.title} overlaps`).toBeUndefined();
            cells.set(`${i},${j}`, p.title);
          }
        }
      }
    },
  );
});

const organize = z.object({
  transformations: z.array(
    z.object({
      id: z.string(),
      options: z.object({ renameByName: z.record(z.string(), z.string()).optional() }).passthrough(),
    }),
  ),
  targets: z.array(z.object({ refId: z.string() })),
});

/** Field names a joined panel ends up with: each query's value renamed by the organize transformation. */
function renamedValueFields(panel: unknown): Map<string, string> {
  const { transformations, targets } = organize.parse(panel);
  const renames = transformations.find((t) => t.id === 'organize')?.options.renameByName ?? {};
  return new Map(targets.map((t) => [renames[`Value #${t.refId}`] ?? '', t.refId]));
}

function rawPanel(uid: string, title: string): unknown {
  const panels = z.object({ panels: z.array(z.object({ title: z.string() }).passthrough()) });
  return panels.parse(byUid(uid).raw).panels.find((p) => p.title === title);
}

describe('joined panels', () => {
  it.each([
    ['cityair-stations', 'Station map'],
    ['cityair-air-quality', 'AQI map'],
  ])('%s: %s finds latitude, longitude and colour among the joined fields', (uid, title) => {
    const panel = rawPanel(uid, title);
    const layer = z
      .object({
        options: z.object({
          layers: z.array(
            z.object({
              location: z.object({ mode: z.literal('coords'), latitude: z.string(), longitude: z.string() }),
              config: z.object({ style: z.object({ color: z.object({ field: z.string() }) }) }),
            }),
          ),
        }),
      })
      .parse(panel).options.layers[0];
    const fields = renamedValueFields(panel);
    expect(fields.has(layer?.location.latitude ?? '')).toBe(true);
    expect(fields.has(layer?.location.longitude ?? '')).toBe(true);
    expect(fields.has(layer?.config.style.color.field ?? '')).toBe(true);
  });

  it.each([
    ['cityair-stations', 'Station list'],
    ['cityair-air-quality', 'Latest readings'],
  ])('%s: %s formats the columns it names', (uid, title) => {
    const panel = rawPanel(uid, title);
    const overrides = z
      .object({
        fieldConfig: z.object({
          overrides: z.array(
            z.object({ matcher: z.object({ id: z.literal('byName'), options: z.string() }) }),
          ),
        }),
      })
      .parse(panel).fieldConfig.overrides;
    const fields = renamedValueFields(panel);
    expect(overrides.map((o) => o.matcher.options).filter((name) => !fields.has(name))).toEqual([]);
  });
});

describe('queries', () => {
  const queries = dashboards.flatMap((d) =>
    panelQueries(d).map((q) => [`${q.dashboard}: ${q.panel} ${q.refId}`, q.expr, d.model.uid] as const),
  );

  it.each(queries)('%s parses as PromQL', (_name, expr) => {
    expect(parsePromql(substitute(expr, PARSE_STAND_INS)).errors).toEqual([]);
  });

  it.each(queries)('%s filters every selector by job and instance', (_name, expr, uid) => {
    const { selectors } = parsePromql(substitute(expr, PARSE_STAND_INS));
    expect(selectors.length).toBeGreaterThan(0);
    for (const s of selectors) {
      expect(s.matchers, s.text).toEqual(
        expect.arrayContaining([
          { name: 'job', op: '=~', value: '$job' },
          { name: 'instance', op: '=~', value: '$instance' },
        ]),
      );
      if (TZ_DASHBOARDS.includes(uid) && TZ_METRICS.has(s.metric)) {
        expect(s.matchers, s.text).toContainEqual({ name: 'tz', op: '=~', value: '$tz' });
      }
    }
    if (uid === 'cityair-stations') expect(expr).toContain('tz=~"$tz"');
    if (uid === 'cityair-air-quality' && STATION_METRIC.test(expr)) expect(expr).toContain('tz=~"$tz"');
  });

  it.each(queries)('%s takes rates over $__rate_interval', (_name, expr) => {
    for (const call of parsePromql(substitute(expr, PARSE_STAND_INS)).rateCalls) {
      expect(call.range, `${call.fn}() in ${expr}`).toBe(PARSE_STAND_INS.$__rate_interval);
    }
  });

  it('the checks above catch what they are for', () => {
    const bad = parsePromql('rate(cityair_upstream_requests_total{job=~"$job"}[5m]) +');
    expect(bad.errors.length).toBeGreaterThan(0);
    expect(bad.rateCalls).toEqual([{ fn: 'rate', range: '5m' }]);
    expect(bad.selectors[0]?.matchers).not.toContainEqual({ name: 'instance', op: '=~', value: '$instance' });
  });
});
