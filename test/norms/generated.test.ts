// Every file generated from the norms table must be what the generator writes today: a changed norm is one edit of
// src/norms/table.ts and `npm run generate:norms`, and this says which file was left behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normsAnnualTestsYaml } from '../../scripts/norms-annual-tests.js';
import { DASHBOARD_FILE, dashboardWithNorms } from '../../scripts/norms-dashboard.js';
import { DOCS_FILE, docsWithNormsTable, normsTableMarkdown } from '../../scripts/norms-docs.js';
import {
  GENERATE_NORMS_COMMAND,
  NORMS_ANNUAL_TEST_FILE,
  NORMS_RULES_FILE,
  NORMS_RULES_TEST_FILE,
} from '../../scripts/norms-names.js';
import { normsRuleTestsYaml } from '../../scripts/norms-rule-tests.js';
import { normsRulesYaml } from '../../scripts/norms-rules.js';
import { REPO_ROOT } from '../container/dockerfile.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

describe('files generated from the norms table', () => {
  it.each([
    [NORMS_RULES_FILE, () => normsRulesYaml()],
    [NORMS_RULES_TEST_FILE, () => normsRuleTestsYaml()],
    [NORMS_ANNUAL_TEST_FILE, () => normsAnnualTestsYaml()],
    [DASHBOARD_FILE, () => dashboardWithNorms(read(DASHBOARD_FILE))],
    [DOCS_FILE, () => docsWithNormsTable(read(DOCS_FILE))],
  ])('%s is up to date', (file, generate) => {
    if (read(file) !== generate())
      throw new Error(`${file} differs from src/norms/table.ts: run ${GENERATE_NORMS_COMMAND}`);
  });

  it('rewrites only its own part of a hand-written file, the same every time', () => {
    const dashboard = read(DASHBOARD_FILE);
    expect(dashboardWithNorms(dashboardWithNorms(dashboard))).toBe(dashboardWithNorms(dashboard));
    const docs = read(DOCS_FILE);
    const edited = docs.replace('## Norms', '## Norms\n\nA line written by hand.');
    expect(docsWithNormsTable(edited)).toContain('A line written by hand.');
    expect(docsWithNormsTable(edited)).toContain(normsTableMarkdown());
  });

  it('refuses a docs file without the markers of the table', () => {
    expect(() => docsWithNormsTable('# Dashboards\n')).toThrow(/markers/);
  });
});
