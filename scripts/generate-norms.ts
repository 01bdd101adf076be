// `npm run generate:norms`: rewrites every file generated from the norms table (src/norms/table.ts), then the
// Kubernetes PrometheusRule that wraps the rules files. npm runs scripts in the package's root.
import { readFileSync, writeFileSync } from 'node:fs';
import { normsAnnualTestsYaml } from './norms-annual-tests.js';
import { DASHBOARD_FILE, dashboardWithNorms } from './norms-dashboard.js';
import { DOCS_FILE, docsWithNormsTable } from './norms-docs.js';
import { NORMS_ANNUAL_TEST_FILE, NORMS_RULES_FILE, NORMS_RULES_TEST_FILE } from './norms-names.js';
import { normsRuleTestsYaml } from './norms-rule-tests.js';
import { normsRulesYaml } from './norms-rules.js';

writeFileSync(NORMS_RULES_FILE, normsRulesYaml());
process.stdout.write(`wrote ${NORMS_RULES_FILE}\n`);
writeFileSync(NORMS_RULES_TEST_FILE, normsRuleTestsYaml());
process.stdout.write(`wrote ${NORMS_RULES_TEST_FILE}\n`);
writeFileSync(NORMS_ANNUAL_TEST_FILE, normsAnnualTestsYaml());
process.stdout.write(`wrote ${NORMS_ANNUAL_TEST_FILE}\n`);
writeFileSync(DASHBOARD_FILE, dashboardWithNorms(readFileSync(DASHBOARD_FILE, 'utf8')));
process.stdout.write(`wrote ${DASHBOARD_FILE}\n`);
writeFileSync(DOCS_FILE, docsWithNormsTable(readFileSync(DOCS_FILE, 'utf8')));
process.stdout.write(`wrote ${DOCS_FILE}\n`);
