// The panels of multiples on the air-quality dashboard: each station's air as multiples of ПДК and of the WHO
// guidelines, coloured by the bands Russian reports use, with the mean each panel reads in its title. The short-
// term multiples come from the norms rules; the annual one is computed by the query itself, so that it works on
// whatever store holds the year (a long-term store that Prometheus writes to, or backfilled history).
import { normsOf } from '../src/norms/lookup.js';
import { BAND_LIMITS, FAMILIES, type NormFamily, SUBSTANCE_NAMES } from '../src/norms/table.js';
import { coverageText, covered, DATA_CAPTURE_TEXT, slicedMean } from './norms-coverage.js';
import { CONCENTRATION, oneOf, ratioRecord } from './norms-names.js';

export type PanelJson = Record<string, unknown> & { id?: unknown; title?: unknown; type?: unknown };

// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a JavaScript template.
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };
const FILTER = 'job=~"$job", instance=~"$instance"';
const STATION_INFO = `cityair_station_info{${FILTER}, tz=~"$tz"}`;
const WITH_NAME = `* on (job, instance, id) group_left (name) ${STATION_INFO}`;
/** Grafana's colours of the bands: up to 1, 1–2, 2–5, above 5. */
const BAND_COLORS = ['green', 'yellow', 'orange', 'red'] as const;
const TOP = 18;

const thresholds = {
  mode: 'absolute',
  steps: [
    { value: null, color: BAND_COLORS[0] },
    ...BAND_LIMITS.map((limit, i) => ({ value: limit, color: BAND_COLORS[i + 1] ?? 'red' })),
  ],
};
const BANDS_TEXT = `Colours, the bands of Russian reports: ${BAND_COLORS[0]} up to ${BAND_LIMITS[0]}×, ${BAND_LIMITS.map(
  (limit, i) => `${BAND_COLORS[i + 1]} above ${limit}×`,
).join(', ')}.`;

export function normsPanels(): PanelJson[] {
  return [
    matrix(101, { x: 0, y: TOP, w: 12, h: 10 }, 'pdk-single', [
      'The latest 20-minute mean of each substance at each station as a multiple of its ПДК м.р., the maximum',
      'single norm of СанПиН 1.2.3685-21, as Russian reports state it ("2.2 ПДК м.р.").',
      `${BANDS_TEXT} CityAirPdkSingleExceeded fires above 1, CityAirExtremelyHighPollution from 20.`,
    ]),
    overTime(102, { x: 12, y: TOP, w: 12, h: 10 }),
    matrix(103, { x: 0, y: TOP + 10, w: 8, h: 10 }, 'pdk-daily', [
      'The 24-hour mean of each substance at each station as a multiple of its ПДК с.с., the daily norm of',
      `СанПиН 1.2.3685-21. ${BANDS_TEXT} CityAirPdkDailyExceeded fires above 1. Empty cells: no daily value`,
      '(H₂S), or no such sensor.',
    ]),
    matrix(104, { x: 8, y: TOP + 10, w: 8, h: 10 }, 'who-24h', [
      'Each station against the WHO 2021 air-quality guidelines for short-term exposure: the mean over each',
      `guideline's averaging time as a multiple of it. ${BANDS_TEXT} CityAirWhoGuidelineExceeded fires above 1.`,
    ]),
    annual(105, { x: 16, y: TOP + 10, w: 8, h: 10 }),
  ];
}

function title(families: readonly NormFamily[], what: string): string {
  const means = families.map((f, i) => {
    const mean = `${FAMILIES[f].averagingText} mean`;
    if (i === 0) return mean;
    const only = normsOf(f).map((n) => SUBSTANCE_NAMES[n.substance]);
    return `${only.join(', ')} ${mean}`;
  });
  return `${what} (${means.join('; ')})`;
}

function base(id: number, gridPos: object, panelTitle: string, description: string[]): PanelJson {
  return {
    id,
    type: 'table',
    title: panelTitle,
    description: description.join(' '),
    datasource: DATASOURCE,
    gridPos,
  };
}

function tableTarget(expr: string) {
  return {
    refId: 'A',
    datasource: DATASOURCE,
    expr,
    range: false,
    instant: true,
    legendFormat: '',
    format: 'table',
  };
}

/** Stations down, substances (or norms) across, one instant query pivoted by Grafana. */
function table(
  panel: PanelJson,
  expr: string,
  columnField: string,
  renames: Record<string, string>,
): PanelJson {
  return {
    ...panel,
    targets: [tableTarget(expr)],
    fieldConfig: {
      defaults: {
        unit: 'suffix:×',
        decimals: 2,
        thresholds,
        custom: { align: 'auto', filterable: true, cellOptions: { type: 'color-background' } },
      },
      overrides: [
        {
          matcher: { id: 'byName', options: 'Station' },
          properties: [{ id: 'custom.cellOptions', value: { type: 'auto' } }],
        },
      ],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: { show: false, reducer: ['sum'], countRows: false, fields: '' },
      sortBy: [{ displayName: 'Station', desc: false }],
    },
    transformations: [
      {
        id: 'groupingToMatrix',
        options: { columnField, rowField: 'name', valueField: 'Value', emptyValue: 'null' },
      },
      { id: 'organize', options: { renameByName: { [`name\\${columnField}`]: 'Station', ...renames } } },
    ],
  };
}

function matrix(id: number, gridPos: object, family: NormFamily, description: string[]): PanelJson {
  const families: NormFamily[] = FAMILIES[family].body === 'who' ? ['who-24h', 'who-8h'] : [family];
  const label = FAMILIES[family].body === 'who' ? 'the WHO guideline' : FAMILIES[family].label;
  const expr = `max by (name, substance) (${ratioRecord(family)}{${FILTER}} ${WITH_NAME})`;
  const substances = new Set(families.flatMap((f) => normsOf(f).map((n) => n.substance)));
  const renames = Object.fromEntries(
    Object.entries(SUBSTANCE_NAMES).filter(([s]) => substances.has(s as never)),
  );
  return table(
    base(id, gridPos, title(families, `Multiple of ${label}`), description),
    expr,
    'substance',
    renames,
  );
}

function overTime(id: number, gridPos: object): PanelJson {
  return {
    id,
    type: 'timeseries',
    title: title(['pdk-single'], 'Multiple of ПДК м.р. over time'),
    description:
      'The 20-minute mean of each substance at each station as a multiple of its ПДК м.р., over time, over the ' +
      `bands of Russian reports. ${BANDS_TEXT}`,
    datasource: DATASOURCE,
    gridPos,
    targets: [
      {
        refId: 'A',
        datasource: DATASOURCE,
        expr: `${ratioRecord('pdk-single')}{${FILTER}} ${WITH_NAME}`,
        range: true,
        instant: false,
        legendFormat: '{{name}} {{substance}}',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'suffix:×',
        decimals: 2,
        color: { mode: 'palette-classic' },
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: { mode: 'none', group: 'A' },
          thresholdsStyle: { mode: 'area' },
        },
        thresholds,
        min: 0,
      },
      overrides: [],
    },
    options: {
      legend: { displayMode: 'list', placement: 'bottom', showLegend: true },
      tooltip: { mode: 'multi', sort: 'desc' },
    },
  };
}

/**
 * One column per substance and annual norm; each mean divided by its value here, as no rule holds the year, and
 * shown only where enough days of the year hold readings, as the annual rules do.
 */
function annual(id: number, gridPos: object): PanelJson {
  const families: NormFamily[] = ['pdk-annual', 'who-annual'];
  const parts = families.flatMap((f) =>
    normsOf(f).map((n) => {
      const column = `${SUBSTANCE_NAMES[n.substance]} ${FAMILIES[f].label}`;
      const mean = slicedMean('1y', `${CONCENTRATION}{${FILTER}, substance="${n.substance}"}`);
      return `label_replace(${mean} / ${n.ugPerM3}, "norm", "${column}", "", "")`;
    }),
  );
  const substances = [...new Set(families.flatMap((f) => normsOf(f).map((n) => n.substance)))];
  const selector = `${CONCENTRATION}{${FILTER}, substance=~"${oneOf(substances)}"}`;
  const expr = `max by (name, norm) ((${covered(`(${parts.join(' or ')})`, '1y', selector)}) ${WITH_NAME})`;
  const panelTitle = 'Multiple of ПДК с.г. and of the WHO annual guideline (365-day mean)';
  const description = [
    'The mean of the last 365 days of each substance at each station as a multiple of its annual norm: ПДК с.г.',
    `(СанПиН 1.2.3685-21) and the WHO 2021 annual guideline. ${BANDS_TEXT} It is computed from the readings the`,
    `data source holds, and shown once ${coverageText('1y')} hold readings (${DATA_CAPTURE_TEXT}): a Prometheus`,
    'keeping 15 days shows nothing. Point the data source at a long-term store that holds the year (one',
    'Prometheus writes to, or backfilled history).',
  ];
  return table(base(id, gridPos, panelTitle, description), expr, 'norm', {});
}
