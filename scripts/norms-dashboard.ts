// The norms' part of dashboards/cityair-air-quality.json, from the norms table: the WHO thresholds of the
// substance panels and the readings table, and the panels of multiples of each norm per station. The rest of the
// dashboard is written by hand; this rewrites only what it owns, so running it twice changes nothing.
import { normsOf } from '../src/norms/lookup.js';
import { FAMILIES, type Norm, SUBSTANCE_NAMES } from '../src/norms/table.js';
import { normsPanels, type PanelJson } from './norms-panels.js';

export const DASHBOARD_FILE = 'dashboards/cityair-air-quality.json';

type Json = Record<string, unknown>;

/** The short-term WHO guideline of a substance: the one its panel and its readings column are coloured by. */
function whoShortTerm(substance: string): Norm | undefined {
  return [...normsOf('who-24h'), ...normsOf('who-8h')].find((n) => n.substance === substance);
}

const SUBSTANCE_BY_TITLE = new Map(Object.entries(SUBSTANCE_NAMES).map(([s, title]) => [title, s]));

export function dashboardWithNorms(text: string): string {
  const dashboard = JSON.parse(text) as Json & { panels: PanelJson[] };
  const own = dashboard.panels.filter((p) => !isGenerated(p)).map(withWhoThresholds);
  const at = own.findIndex((p) => p.title === 'Latest readings') + 1;
  dashboard.panels = [...own.slice(0, at), ...normsPanels(), ...own.slice(at)];
  return `${JSON.stringify(dashboard, null, 2)}\n`;
}

/** Generated panels have ids from 100 on; the hand-written ones stay below. */
function isGenerated(p: PanelJson): boolean {
  return typeof p.id === 'number' && p.id >= 100;
}

const steps = (limit: number) => [
  { value: null, color: 'green' },
  { value: limit, color: 'red' },
];

function withWhoThresholds(p: PanelJson): PanelJson {
  const substance = SUBSTANCE_BY_TITLE.get(String(p.title));
  const norm = substance === undefined ? undefined : whoShortTerm(substance);
  if (norm && p.type === 'timeseries') return substancePanel(p, norm);
  if (p.title === 'Latest readings') return readingsTable(p);
  return p;
}

function substancePanel(p: PanelJson, norm: Norm): PanelJson {
  const name = SUBSTANCE_NAMES[norm.substance];
  const mean = FAMILIES[norm.family].averagingText;
  const fieldConfig = p.fieldConfig as { defaults: Json; overrides: unknown };
  return {
    ...p,
    description:
      `${name} concentration per station, and its ${mean} mean (dashed, recording rule). The red zone starts at ` +
      `the WHO 2021 air-quality guideline for the ${mean} mean, ${norm.ugPerM3} µg/m³; the guideline applies to ` +
      'the mean, the readings themselves may pass it for a while. CityAirWhoGuidelineExceeded fires when the mean ' +
      'stays above it for an hour. The panels of multiples show the same air against ПДК.',
    fieldConfig: {
      ...fieldConfig,
      defaults: { ...fieldConfig.defaults, thresholds: { mode: 'absolute', steps: steps(norm.ugPerM3) } },
    },
  };
}

interface Override {
  matcher: { id: string; options: string };
  properties: { id: string; value: unknown }[];
}

function readingsTable(p: PanelJson): PanelJson {
  const fieldConfig = p.fieldConfig as { defaults: Json; overrides: Override[] };
  const overrides = fieldConfig.overrides.map((o) => {
    const substance = SUBSTANCE_BY_TITLE.get(o.matcher.options);
    const norm = substance === undefined ? undefined : whoShortTerm(substance);
    if (!norm) return o;
    const properties = o.properties.map((prop) =>
      prop.id === 'thresholds' ? { ...prop, value: { mode: 'absolute', steps: steps(norm.ugPerM3) } } : prop,
    );
    return { ...o, properties };
  });
  return { ...p, fieldConfig: { ...fieldConfig, overrides } };
}
