// deploy/prometheus/cityair-norms-rules.yml from the norms table: the means each norm applies to, each mean as a
// multiple of its norm, and the alerts on those multiples. One recording rule per substance and norm, so the file
// shows every value it judges by, and a substance without a value for a norm has no rule for it.
import { normsOf } from '../src/norms/lookup.js';
import {
  EXTREME_POLLUTION,
  FAMILIES,
  type FamilyInfo,
  type NormFamily,
  SUBSTANCE_NAMES,
} from '../src/norms/table.js';
import { coverageText, DATA_CAPTURE_TEXT, meanExpr } from './norms-coverage.js';
import {
  ALERTS,
  CONCENTRATION,
  GENERATE_NORMS_COMMAND,
  GROUPS,
  meanRecord,
  oneOf,
  ratioRecord,
  runbookUrl,
} from './norms-names.js';
import type { AlertingRule, RecordingRule, RuleGroup } from './rules-yaml.js';
import { rulesYaml } from './rules-yaml.js';

const HEADER = `Generated from src/norms/table.ts by \`${GENERATE_NORMS_COMMAND}\`: change a norm there, not here.

Air-quality norms for cityair-exporter: the Russian sanitary norms (ПДК, СанПиН 1.2.3685-21) and the WHO 2021 \
air-quality guidelines. Load this file beside cityair-rules.yml (rule_files); the air-quality dashboard reads \
its means and multiples. Everything here reads cityair_concentration_micrograms_per_cubic_meter (µg/m³) alone, \
so it needs the readings collector (--collector.measurements); alerts add the station's name from \
cityair_station_info where there is one.

Each family of norms has a group of its own: delete cityair.norms.pdk or cityair.norms.who to not judge the air \
by that family, and cityair.norms.annual where Prometheus does not hold a year of readings. The means group \
serves both families.`;

export function normsRuleGroups(): RuleGroup[] {
  return [meansGroup(), pdkGroup(), whoGroup(), annualGroup()];
}

export function normsRulesYaml(): string {
  return rulesYaml(HEADER, normsRuleGroups());
}

/** Substances with a value in any of these families, in the table's order. */
function substancesOf(...families: NormFamily[]): string[] {
  const wanted = new Set<string>(families.flatMap((f) => normsOf(f).map((n) => n.substance)));
  return Object.keys(SUBSTANCE_NAMES).filter((s) => wanted.has(s));
}

function meanRule(averaging: FamilyInfo['averaging'], families: NormFamily[], why: string): RecordingRule {
  const substances = substancesOf(...families);
  return {
    comment: why,
    record: meanRecord(averaging),
    expr: meanExpr(averaging, `${CONCENTRATION}{substance=~"${oneOf(substances)}"}`),
  };
}

function meansGroup(): RuleGroup {
  return {
    comment: `Means per station and substance over the averaging time of each norm, for the substances that have \
one. A mean averages the readings present in its window, and counts only once ${DATA_CAPTURE_TEXT} of the window holds \
readings (the usual data capture of air-quality reporting): at least ${coverageText('8h')} and \
${coverageText('24h')} have a reading. Until then, after an installation or an outage, the mean, its multiples \
and its alerts are absent.`,
    name: GROUPS.means,
    rules: [
      meanRule(
        '20m',
        ['pdk-single'],
        `20 minutes: ПДК м.р. applies to 20–30-minute means. With --measurements.interval=5m it averages four \
readings; with 20m each reading is already such a mean.`,
      ),
      meanRule('8h', ['who-8h'], '8 hours: the WHO guideline for O₃.'),
      meanRule('24h', ['pdk-daily', 'who-24h'], '24 hours: ПДК с.с. and the WHO 24-hour guidelines.'),
    ],
  };
}

/**
 * The family's mean divided by each substance's value, one line per substance. One rule per family: promtool
 * rejects several rules recording the same series name with the same labels.
 */
function ratioRule(family: NormFamily, labels?: Readonly<Record<string, string>>): RecordingRule {
  const info = FAMILIES[family];
  const norms = normsOf(family);
  const values = norms.map((n) => `${SUBSTANCE_NAMES[n.substance]} ${n.ugPerM3}`).join(', ');
  return {
    comment: `${info.label} (${info.averagingText} mean), µg/m³: ${values}.`,
    record: ratioRecord(family),
    expr: norms
      .map(
        (n) =>
          `${norms.length > 1 ? '  ' : ''}${meanRecord(info.averaging)}{substance="${n.substance}"} / ${n.ugPerM3}`,
      )
      .join('\nor\n'),
    ...(labels ? { labels } : {}),
  };
}

/**
 * The station's name, quoted and followed by a space, where cityair_station_info has one; nothing otherwise. It is
 * looked up for the annotation rather than joined into the alert's labels: a missed scrape of the station list
 * would change the labels, and so start the alert's `for` over.
 */
export const STATION_NAME =
  '{{ with printf "cityair_station_info{job=%q, instance=%q, id=%q}" $labels.job $labels.instance $labels.id | query }}' +
  '{{ with . | first | label "name" }}"{{ . }}" {{ end }}{{ end }}';
const STATION = `{{ $labels.substance }} at station ${STATION_NAME}(id {{ $labels.id }})`;
const SEEN = 'seen by {{ $labels.instance }}';
const VALUE = '{{ $value | printf "%.1f" }}';

function alert(
  name: string,
  condition: string,
  lasting: string,
  labels: Record<string, string>,
  summary: string,
  description: string,
  comment?: string,
): AlertingRule {
  return {
    ...(comment ? { comment } : {}),
    alert: name,
    expr: condition,
    for: lasting,
    labels,
    annotations: { summary, description, runbook_url: runbookUrl(name) },
  };
}

function pdkGroup(): RuleGroup {
  const single = ratioRecord('pdk-single');
  const daily = ratioRecord('pdk-daily');
  return {
    comment: `ПДК (СанПиН 1.2.3685-21): each mean as a multiple of its norm, the way Russian reports state it \
("2.2 ПДК м.р."), and the alerts on them. Delete this group to not alert on ПДК.`,
    name: GROUPS.pdk,
    rules: [
      ratioRule('pdk-single'),
      ratioRule('pdk-daily'),
      alert(
        ALERTS.pdkSingle,
        `${single} > 1`,
        '5m',
        { severity: 'warning' },
        'A 20-minute mean at a CityAir station is above its ПДК м.р.',
        `The 20-minute mean of ${STATION} ${SEEN} is ${VALUE} × ПДК м.р., the maximum single norm of \
СанПиН 1.2.3685-21.`,
      ),
      alert(
        ALERTS.pdkDaily,
        `${daily} > 1`,
        '1h',
        { severity: 'warning' },
        'The 24-hour mean at a CityAir station is above its ПДК с.с.',
        `The 24-hour mean of ${STATION} ${SEEN} has been above ПДК с.с., the daily norm of СанПиН 1.2.3685-21, \
for at least 1 hour; it is now ${VALUE} × ПДК с.с.`,
      ),
      ...EXTREME_POLLUTION.map((c, i) =>
        alert(
          ALERTS.extreme,
          `${single} >= ${c.atLeast}`,
          c.lasting,
          { severity: 'critical', criterion: c.criterion },
          'Extremely high pollution (ЭВЗ) at a CityAir station.',
          `The 20-minute mean of ${STATION} ${SEEN} is ${VALUE} × ПДК м.р.: extremely high pollution (ЭВЗ) by \
Roshydromet's criterion of ${c.text}.`,
          i === 0
            ? `Roshydromet's extremely high pollution (ЭВЗ), one rule per criterion (the criterion label): \
${EXTREME_POLLUTION.map((x) => x.text).join('; ')}.`
            : undefined,
        ),
      ),
    ],
  };
}

function whoGroup(): RuleGroup {
  return {
    comment: `WHO 2021 air-quality guidelines for short-term exposure: 24-hour means, and the 8-hour mean for O₃ \
(the guideline is the day's highest 8-hour mean). The multiples carry their averaging time as a label. Delete \
this group to not alert on the WHO guidelines.`,
    name: GROUPS.who,
    rules: [
      ratioRule('who-24h', { averaging: FAMILIES['who-24h'].averaging }),
      ratioRule('who-8h', { averaging: FAMILIES['who-8h'].averaging }),
      alert(
        ALERTS.who,
        `${ratioRecord('who-24h')} > 1`,
        '1h',
        { severity: 'info' },
        'A mean at a CityAir station is above its WHO air-quality guideline.',
        `The {{ $labels.averaging }} mean of ${STATION} ${SEEN} has been above the WHO 2021 air-quality \
guideline for that averaging time for at least 1 hour; it is now ${VALUE} × the guideline.`,
      ),
    ],
  };
}

function annualGroup(): RuleGroup {
  return {
    comment: `Annual means and their multiples of ПДК с.г. and of the WHO annual guidelines. They mean what \
they say only where Prometheus holds a year of readings (--storage.tsdb.retention.time=1y or more, backfilled or \
not), and exist only once ${coverageText('1y')} hold a reading (${DATA_CAPTURE_TEXT}); on the default \
15 days they never do, so delete this group there and read the dashboard's annual panel from a long-term store \
instead. Evaluated hourly: each evaluation reads every sample of the year twice (the mean, and the days that hold \
readings).`,
    name: GROUPS.annual,
    interval: '1h',
    rules: [
      meanRule('1y', ['pdk-annual', 'who-annual'], '365 days: ПДК с.г. and the WHO annual guidelines.'),
      ratioRule('pdk-annual'),
      ratioRule('who-annual'),
    ],
  };
}
