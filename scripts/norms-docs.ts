// The table of norms in docs/dashboards-and-alerts.md, from the norms table, between two markers; the prose
// around it is written by hand.
import { normValue } from '../src/norms/lookup.js';
import { FAMILIES, type NormFamily, SUBSTANCE_NAMES } from '../src/norms/table.js';
import { GENERATE_NORMS_COMMAND } from './norms-names.js';

export const DOCS_FILE = 'docs/dashboards-and-alerts.md';
const BEGIN = `<!-- The norms table: generated from src/norms/table.ts by ${GENERATE_NORMS_COMMAND}. -->`;
const END = '<!-- End of the norms table. -->';

const AVERAGING_WORDS: Readonly<Record<string, string>> = {
  '20m': '20 min',
  '8h': '8 h',
  '24h': '24 h',
  '1y': 'year',
};

export function normsTableMarkdown(): string {
  const families = Object.keys(FAMILIES) as NormFamily[];
  const head = families.map(
    (f) =>
      `${FAMILIES[f].label.replace(/ (24 h|8 h|annual)$/, '')}, ${AVERAGING_WORDS[FAMILIES[f].averaging]}`,
  );
  const rows = Object.entries(SUBSTANCE_NAMES).map(([substance, name]) => {
    const cells = families.map((f) => String(normValue(substance, f) ?? '–'));
    return `| ${name} (\`${substance}\`) | ${cells.join(' | ')} |`;
  });
  const sources = [...new Set(families.map((f) => FAMILIES[f].source))];
  return [
    `| substance (\`substance\` label) | ${head.join(' | ')} |`,
    `|---|${families.map(() => '---').join('|')}|`,
    ...rows,
    '',
    `Values in µg/m³, the exporter's unit; a dash: the norm sets no value, and no rule exists for it. Sources: ${sources.join('; ')}.`,
  ].join('\n');
}

export function docsWithNormsTable(text: string): string {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOCS_FILE} lacks the markers of the norms table`);
  return `${text.slice(0, start)}${BEGIN}\n${normsTableMarkdown()}\n${text.slice(end)}`;
}
