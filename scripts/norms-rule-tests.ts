// deploy/prometheus/cityair-norms-rules.test.yml from the norms table: promtool unit tests in which every alert
// fires just above its norm and stays quiet at and below it, for short peaks the norm's mean smooths out, and for
// substances the norm sets no value for. The expected descriptions are the rules' own templates, rendered here,
// so promtool checks that Prometheus renders them the same.
import { stringify } from 'yaml';
import { normsOf } from '../src/norms/lookup.js';
import { COVERAGE, EXTREME_POLLUTION, FAMILIES, type NormFamily } from '../src/norms/table.js';
import { ALERTS, CONCENTRATION, GENERATE_NORMS_COMMAND, GROUPS, meanRecord } from './norms-names.js';
import { normsRuleGroups, STATION_NAME } from './norms-rules.js';
import type { AlertingRule } from './rules-yaml.js';

export const JOB = 'cityair';
export const INSTANCE = 'exporter:9610';
/** Stations: the first has a name in cityair_station_info; the alerts must fire for the others without one. */
export const NAMED = { id: '1000', name: 'Москва, ул. Ленина, 12' };
const UNLISTED = '1017';
const QUIET = '1034';
const EDGE = '1051';
/** A substance no norm covers, at a concentration that would break any of them. */
export const UNCOVERED = 'ch2o';

type Labels = Record<string, string>;
interface Series {
  readonly series: string;
  readonly values: string;
}
interface ExpectedAlert {
  readonly exp_labels: Labels;
  readonly exp_annotations: Labels;
}

export function normsRuleTestsYaml(): string {
  const doc = {
    rule_files: ['cityair-norms-rules.yml'],
    // Days of evaluations at 1 minute take promtool about a minute; 5 minutes is the shortest `for` anyway.
    evaluation_interval: '5m',
    // promtool evaluates groups in random order unless told; the multiples read the means.
    group_eval_order: [GROUPS.means, GROUPS.pdk, GROUPS.who, GROUPS.annual],
    tests: [
      meansTest(),
      weightingTest(),
      pdkSingleTest(),
      pdkDailyTest(),
      coverageTest(),
      extremeTest(),
      whoTest(),
    ],
  };
  const header = `# Generated from src/norms/table.ts by \`${GENERATE_NORMS_COMMAND}\`: change a norm there, not here.
# promtool unit tests of cityair-norms-rules.yml: \`promtool test rules deploy/prometheus/cityair-norms-rules.test.yml\`.
`;
  return header + stringify(doc, { lineWidth: 0 });
}

export function selector(metric: string, labels: Labels): string {
  const all = { job: JOB, instance: INSTANCE, ...labels };
  return `${metric}{${Object.entries(all)
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ')}}`;
}

/** `value` for `points` samples, then the next segment: promtool's "a x n" gives n + 1 samples. */
export function segments(...parts: readonly (readonly [number, number])[]): string {
  return parts.map(([value, points]) => `${value}x${points - 1}`).join(' ');
}

export function concentration(id: string, substance: string, values: string): Series {
  return { series: selector(CONCENTRATION, { id, substance }), values };
}

function stationInfo(points: number): Series {
  const labels = { id: NAMED.id, name: NAMED.name, description: 'Пост №1', tz: 'Europe/Moscow' };
  return { series: selector('cityair_station_info', labels), values: segments([1, points]) };
}

function rule(name: string, criterion?: string): AlertingRule {
  const found = normsRuleGroups()
    .flatMap((g) => g.rules)
    .find((r): r is AlertingRule => 'alert' in r && r.alert === name && r.labels.criterion === criterion);
  if (!found) throw new Error(`no rule ${name} ${criterion ?? ''}`);
  return found;
}

/** What Prometheus makes of the few template actions the rules use; anything else is refused. */
function render(template: string, labels: Labels, name: string | undefined, value: number): string {
  const text = template
    .replace(STATION_NAME, name === undefined ? '' : `"${name}" `)
    .replace(/\{\{ \$labels\.(\w+) \}\}/g, (_m, l: string) => labels[l] ?? '')
    .replace(/\{\{ \$value \| printf "%\.1f" \}\}/g, value.toFixed(1));
  if (text.includes('{{')) throw new Error(`cannot render ${template}`);
  return text;
}

function expected(r: AlertingRule, labels: Labels, value: number): ExpectedAlert {
  const all: Labels = { ...r.labels, job: JOB, instance: INSTANCE, ...labels };
  const name = all.id === NAMED.id ? NAMED.name : undefined;
  const annotations = Object.fromEntries(
    Object.entries(r.annotations).map(([k, v]) => [k, render(v, all, name, value)]),
  );
  return { exp_labels: all, exp_annotations: annotations };
}

const named = (substance: string): Labels => ({ id: NAMED.id, substance });
const unnamed = (id: string, substance: string): Labels => ({ id, substance });

function meansTest() {
  // Readings every 10 minutes: 10, 20, 30, ... µg/m³, for every substance the table knows and one it does not.
  const substances = [...new Set(normsOf('pdk-single').map((n) => n.substance)), UNCOVERED];
  // The 8-hour and 24-hour means are of whole clock hours, each the mean of its six readings: hour p (in minutes)
  // holds p-50..p, so its mean is p - 15; at 30 h the 8 hours end at 23 h..30 h, the 24 hours at 7 h..30 h.
  const at30h = { mean20m: 1800, mean24h: 1095, mean8h: 1575 };
  const sample = (name: string, substance: string, value: number) => ({
    labels: selector(name, { id: NAMED.id, substance }),
    value,
  });
  const meanOf = (averaging: '20m' | '8h' | '24h', families: NormFamily[], value: number) => {
    const covered = new Set<string>(families.flatMap((f) => normsOf(f).map((n) => n.substance)));
    return {
      expr: meanRecord(averaging),
      eval_time: '30h',
      exp_samples: substances
        .filter((s) => covered.has(s))
        .map((s) => sample(meanRecord(averaging), s, value)),
    };
  };
  return {
    name: 'the means average the readings of each substance a norm covers, over its averaging time',
    interval: '10m',
    input_series: substances.map((s) => concentration(NAMED.id, s, '10+10x200')),
    // At 30 h: 20 min holds 1790..1810.
    promql_expr_test: [
      meanOf('20m', ['pdk-single'], at30h.mean20m),
      meanOf('8h', ['who-8h'], at30h.mean8h),
      meanOf('24h', ['pdk-daily', 'who-24h'], at30h.mean24h),
    ],
  };
}

/**
 * Each hour of a 24-hour mean weighs the same, however many readings it holds: 22 hourly rows of 10 µg/m³ (as a
 * backfill of hourly rows writes them) and then two hours of 5-minute readings of 100 average 17.5, not the 57 of
 * their 46 readings. And the 24 hours end on the hour without a 25th: a row exactly 24 hours back is left out.
 */
function weightingTest() {
  const [mixed, onTheHour] = ['1187', '1204'];
  const hourly = Array.from({ length: 22 }, () => '10 _x11').join(' ');
  const input = [
    // Rows at 0 h 05, 1 h 05, ... 21 h 05, then every 5 minutes from 22 h 05 to 24 h.
    concentration(mixed, 'pm2.5', `_ ${hourly} 100x23`),
    // 1000 at 0 h, then 0 at every hour up to 24 h.
    concentration(onTheHour, 'pm2.5', `1000 _x11 ${Array.from({ length: 23 }, () => '0 _x11').join(' ')} 0`),
  ];
  const mean = meanRecord('24h');
  return {
    name: 'a 24-hour mean weighs each of its 24 clock hours the same, and holds no 25th',
    interval: '5m',
    input_series: input,
    promql_expr_test: [
      {
        expr: `${mean}{substance="pm2.5"}`,
        eval_time: '24h',
        exp_samples: [
          { labels: selector(mean, { id: mixed, substance: 'pm2.5' }), value: 17.5 },
          { labels: selector(mean, { id: onTheHour, substance: 'pm2.5' }), value: 0 },
        ],
      },
    ],
  };
}

function pdkSingleTest() {
  const r = rule(ALERTS.pdkSingle);
  const norms = normsOf('pdk-single');
  const [first] = norms;
  if (!first) throw new Error('no ПДК м.р. in the table');
  return {
    name: `${ALERTS.pdkSingle} fires above ПДК м.р. for every substance, named or not, and not at or below it`,
    interval: '1m',
    input_series: [
      stationInfo(30),
      ...norms.flatMap((n) => [
        concentration(NAMED.id, n.substance, segments([1.5 * n.ugPerM3, 30])),
        concentration(QUIET, n.substance, segments([0.9 * n.ugPerM3, 30])),
        concentration(EDGE, n.substance, segments([n.ugPerM3, 30])),
      ]),
      concentration(UNLISTED, first.substance, segments([2 * first.ugPerM3, 30])),
      concentration(NAMED.id, UNCOVERED, segments([1e6, 30])),
    ],
    alert_rule_test: [
      { eval_time: '4m', alertname: r.alert, exp_alerts: [] },
      {
        eval_time: '10m',
        alertname: r.alert,
        exp_alerts: [
          ...norms.map((n) => expected(r, named(n.substance), 1.5)),
          expected(r, unnamed(UNLISTED, first.substance), 2),
        ],
      },
    ],
  };
}

function pdkDailyTest() {
  const r = rule(ALERTS.pdkDaily);
  const norms = normsOf('pdk-daily');
  const peak = norms.find((n) => n.substance === 'no2') ?? norms[0];
  const singleOnly = normsOf('pdk-single').filter((n) => !norms.some((d) => d.substance === n.substance));
  if (!peak) throw new Error('no ПДК с.с. in the table');
  // Every 10 minutes for 26 hours.
  const points = 157;
  return {
    name: `${ALERTS.pdkDaily} fires on the 24-hour mean above ПДК с.с., not on a short peak or a substance without one`,
    interval: '10m',
    input_series: [
      stationInfo(points),
      ...norms.map((n) => concentration(NAMED.id, n.substance, segments([1.5 * n.ugPerM3, points]))),
      ...norms.map((n) => concentration(QUIET, n.substance, segments([0.5 * n.ugPerM3, points]))),
      // A day at half the norm, then an hour at three times it: the 24-hour mean stays near 0.6.
      concentration(UNLISTED, peak.substance, segments([0.5 * peak.ugPerM3, 138], [3 * peak.ugPerM3, 19])),
      // Far above ПДК м.р. all day, but the norm sets no daily value for these.
      ...singleOnly.map((n) => concentration(NAMED.id, n.substance, segments([10 * n.ugPerM3, points]))),
      concentration(NAMED.id, UNCOVERED, segments([1e6, points])),
    ],
    alert_rule_test: [
      { eval_time: '50m', alertname: r.alert, exp_alerts: [] },
      {
        eval_time: '25h',
        alertname: r.alert,
        exp_alerts: norms.map((n) => expected(r, named(n.substance), 1.5)),
      },
    ],
  };
}

function extremeTest() {
  const [norm] = normsOf('pdk-single');
  if (!norm) throw new Error('no ПДК м.р. in the table');
  const [top, eight, twoDays] = EXTREME_POLLUTION;
  if (!top || !eight || !twoDays) throw new Error('three ЭВЗ criteria expected');
  const s = norm.substance;
  // Every 20 minutes for 50 hours.
  const points = 151;
  const at = (multiple: number) => multiple * norm.ugPerM3;
  const fire = (criterion: string, id: string, multiple: number): ExpectedAlert =>
    expected(rule(ALERTS.extreme, criterion), id === NAMED.id ? named(s) : unnamed(id, s), multiple);
  const r = rule(ALERTS.extreme, top.criterion);
  const between = (low: number, high: number) => (low + high) / 2;
  const m = {
    top: top.atLeast + 5,
    eight: between(eight.atLeast, top.atLeast),
    two: between(twoDays.atLeast, eight.atLeast),
  };
  return {
    name: `${ALERTS.extreme}: each of Roshydromet's criteria, once it has lasted, and not when interrupted`,
    interval: '20m',
    input_series: [
      stationInfo(points),
      concentration(NAMED.id, s, segments([at(m.top), points])),
      concentration(UNLISTED, s, segments([at(m.eight), points])),
      concentration(QUIET, s, segments([at(m.two), points])),
      // The 2-day criterion interrupted for an hour after 30 hours: it starts over.
      concentration(EDGE, s, segments([at(m.two), 90], [at(twoDays.atLeast / 2), 3], [at(m.two), 58])),
      concentration(NAMED.id, UNCOVERED, segments([1e9, points])),
    ],
    alert_rule_test: [
      { eval_time: '4m', alertname: r.alert, exp_alerts: [] },
      { eval_time: '20m', alertname: r.alert, exp_alerts: [fire(top.criterion, NAMED.id, m.top)] },
      { eval_time: '7h', alertname: r.alert, exp_alerts: [fire(top.criterion, NAMED.id, m.top)] },
      {
        eval_time: '9h',
        alertname: r.alert,
        exp_alerts: [
          fire(top.criterion, NAMED.id, m.top),
          fire(eight.criterion, NAMED.id, m.top),
          fire(eight.criterion, UNLISTED, m.eight),
        ],
      },
      {
        eval_time: '49h',
        alertname: r.alert,
        exp_alerts: [
          fire(top.criterion, NAMED.id, m.top),
          fire(eight.criterion, NAMED.id, m.top),
          fire(eight.criterion, UNLISTED, m.eight),
          fire(twoDays.criterion, NAMED.id, m.top),
          fire(twoDays.criterion, UNLISTED, m.eight),
          fire(twoDays.criterion, QUIET, m.two),
        ],
      },
    ],
  };
}

function whoTest() {
  const r = rule(ALERTS.who);
  const norms = [...normsOf('who-24h'), ...normsOf('who-8h')];
  const pm25 = normsOf('who-24h').find((n) => n.substance === 'pm2.5') ?? norms[0];
  if (!pm25) throw new Error('no WHO guideline in the table');
  const uncovered = normsOf('pdk-single').filter((n) => !norms.some((w) => w.substance === n.substance));
  const points = 157;
  const averaging = (family: NormFamily) => FAMILIES[family].averaging;
  return {
    name: `${ALERTS.who} fires on the mean of each guideline's averaging time, not on a peak or an uncovered substance`,
    interval: '10m',
    input_series: [
      stationInfo(points),
      ...norms.map((n) => concentration(NAMED.id, n.substance, segments([1.5 * n.ugPerM3, points]))),
      ...norms.map((n) => concentration(QUIET, n.substance, segments([0.5 * n.ugPerM3, points]))),
      // A clean day, then an hour at four times the guideline: the 24-hour mean stays under it.
      concentration(UNLISTED, pm25.substance, segments([pm25.ugPerM3 / 3, 144], [4 * pm25.ugPerM3, 13])),
      ...uncovered.map((n) => concentration(NAMED.id, n.substance, segments([10 * n.ugPerM3, points]))),
      concentration(NAMED.id, UNCOVERED, segments([1e6, points])),
    ],
    alert_rule_test: [
      { eval_time: '50m', alertname: r.alert, exp_alerts: [] },
      {
        eval_time: '25h',
        alertname: r.alert,
        exp_alerts: norms.map((n) =>
          expected(r, { ...named(n.substance), averaging: averaging(n.family) }, 1.5),
        ),
      },
    ],
  };
}

/**
 * A daily mean counts once enough of its hours hold readings. Readings every minute, none on the hour, so each block
 * fills whole clock hours on every Prometheus version: a day of silence and then 75 minutes, an hour short of
 * enough and just enough at 1.1 × ПДК с.с., and a full day of it; and hourly rows on the hour, an hour short. Both
 * daily alerts stay quiet until the mean covers enough hours.
 */
function coverageTest() {
  const daily = normsOf('pdk-daily').find((n) => n.substance === 'no2');
  const who = normsOf('who-24h').find((n) => n.substance === 'no2');
  if (!daily || !who) throw new Error('no daily NO₂ norms in the table');
  const value = 1.1 * daily.ugPerM3;
  const { atLeast } = COVERAGE['24h'];
  // Blanks up to 3 h, then readings from 3 h 01 min to one minute before the hour `hours` later.
  const hoursFrom3h = (hours: number) => `_x181 ${value}x${hours * 60 - 2}`;
  // Hourly rows on the hour from 8 h, one hour short: each row falls in one clock hour, not in two.
  const onTheHour = `_x480 ${Array.from({ length: atLeast - 1 }, () => `${value} _x59`).join(' ')}`;
  const [gap, short, enough, full, hourly] = ['1085', '1102', '1119', '1136', '1153'];
  const input = [
    concentration(gap, 'no2', `${0.2 * daily.ugPerM3}x60 _x1440 ${value}x75`),
    concentration(short, 'no2', hoursFrom3h(atLeast - 1)),
    concentration(hourly, 'no2', onTheHour),
    concentration(enough, 'no2', hoursFrom3h(atLeast)),
    concentration(full, 'no2', `${value}x1575`),
  ];
  const fired = (r: AlertingRule, extra: Labels, multiple: number) => [
    expected(r, { ...unnamed(enough, 'no2'), ...extra }, multiple),
    expected(r, { ...unnamed(full, 'no2'), ...extra }, multiple),
  ];
  const whoAlert = rule(ALERTS.who);
  const multipleOfWho = Math.round((value / who.ugPerM3) * 10) / 10;
  return {
    name: `${ALERTS.pdkDaily} and ${ALERTS.who} judge a 24-hour mean only once ${atLeast} of its hours hold readings`,
    interval: '1m',
    input_series: input,
    alert_rule_test: [
      {
        eval_time: '26h15m',
        alertname: ALERTS.pdkDaily,
        exp_alerts: fired(rule(ALERTS.pdkDaily), {}, 1.1),
      },
      {
        eval_time: '26h15m',
        alertname: ALERTS.who,
        exp_alerts: fired(whoAlert, { averaging: FAMILIES['who-24h'].averaging }, multipleOfWho),
      },
    ],
  };
}
