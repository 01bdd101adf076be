// `npm run generate:norms`: rewrites every file generated from the norms table (src/norms/table.ts), then the
// Kubernetes PrometheusRule that wraps the rules files. npm runs scripts in the package's root.
import { writeFileSync } from 'node:fs';
import { NORMS_RULES_FILE, NORMS_RULES_TEST_FILE } from './norms-names.js';
import { normsRuleTestsYaml } from './norms-rule-tests.js';
import { normsRulesYaml } from './norms-rules.js';

writeFileSync(NORMS_RULES_FILE, normsRulesYaml());
process.stdout.write(`wrote ${NORMS_RULES_FILE}\n`);
writeFileSync(NORMS_RULES_TEST_FILE, normsRuleTestsYaml());
process.stdout.write(`wrote ${NORMS_RULES_TEST_FILE}\n`);
