// `npm run generate:kubernetes`: rewrites the generated files of deploy/kubernetes from their sources.
// npm runs scripts in the package's root, so the paths are relative to it.
import { readFileSync, writeFileSync } from 'node:fs';
import { PROMETHEUS_RULE_FILE, prometheusRuleYaml, RULES_FILES } from './prometheus-rule.js';

const text = prometheusRuleYaml(RULES_FILES.map((file) => ({ file, text: readFileSync(file, 'utf8') })));
writeFileSync(PROMETHEUS_RULE_FILE, text);
process.stdout.write(`wrote ${PROMETHEUS_RULE_FILE} from ${RULES_FILES.join(' and ')}\n`);
