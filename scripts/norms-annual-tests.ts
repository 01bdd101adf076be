// deploy/prometheus/cityair-norms-annual.test.yml from the norms table: promtool unit tests of the annual means,
// apart from the other norms' tests because they need most of a year of daily readings. Evaluated once a day, a
// year of rules takes promtool about a second; at the 5 minutes of the other tests it would take minutes.
import { stringify } from 'yaml';
import { normsOf } from '../src/norms/lookup.js';
import { COVERAGE, type NormFamily } from '../src/norms/table.js';
import {
  GENERATE_NORMS_COMMAND,
  GROUPS,
  meanRecord,
  NORMS_ANNUAL_TEST_FILE,
  ratioRecord,
} from './norms-names.js';
import { concentration, NAMED, segments, selector, UNCOVERED } from './norms-rule-tests.js';

/** A station read on one day fewer than the annual mean needs. */
const SHORT = '1017';
const VALUE = 100;

export function normsAnnualTestsYaml(): string {
  const doc = {
    rule_files: ['cityair-norms-rules.yml'],
    evaluation_interval: '1d',
    group_eval_order: [GROUPS.means, GROUPS.pdk, GROUPS.who, GROUPS.annual],
    tests: [annualTest()],
  };
  const header = `# Generated from src/norms/table.ts by \`${GENERATE_NORMS_COMMAND}\`: change a norm there, not here.
# promtool unit tests of the annual means of cityair-norms-rules.yml: \`promtool test rules ${NORMS_ANNUAL_TEST_FILE}\`.
`;
  return header + stringify(doc, { lineWidth: 0 });
}

/**
 * A reading a day, on the day's first instant: the named station on exactly as many days as the annual mean needs,
 * for every substance the table knows and one it does not; another station on one day fewer. Only the first has
 * annual means, and its multiples divide them by each annual value, where there is one.
 */
function annualTest() {
  const { atLeast } = COVERAGE['1y'];
  const substances = [...new Set(normsOf('pdk-single').map((n) => n.substance)), UNCOVERED];
  const evalTime = `${atLeast + 30}d`;
  const annual = new Set<string>(
    (['pdk-annual', 'who-annual'] as const).flatMap((f) => normsOf(f).map((n) => n.substance)),
  );
  const ratios = (family: NormFamily) => ({
    expr: ratioRecord(family),
    eval_time: evalTime,
    exp_samples: normsOf(family).map((n) => ({
      labels: selector(ratioRecord(family), { id: NAMED.id, substance: n.substance }),
      value: VALUE / n.ugPerM3,
    })),
  });
  return {
    name: `an annual mean exists once ${atLeast} days of the year hold readings, and its multiples divide it by each annual value`,
    interval: '1d',
    input_series: [
      ...substances.map((s) => concentration(NAMED.id, s, segments([VALUE, atLeast]))),
      ...substances.map((s) => concentration(SHORT, s, segments([VALUE, atLeast - 1]))),
    ],
    promql_expr_test: [
      {
        expr: meanRecord('1y'),
        eval_time: evalTime,
        exp_samples: substances
          .filter((s) => annual.has(s))
          .map((s) => ({ labels: selector(meanRecord('1y'), { id: NAMED.id, substance: s }), value: VALUE })),
      },
      ratios('pdk-annual'),
      ratios('who-annual'),
    ],
  };
}
