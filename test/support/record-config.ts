// The record's configuration as the exporter's one command line reads it: the readings collector on, an API key
// in the environment, the record's flags among the exporter's.
import { parseCli } from '../../src/cli.js';
import type { RecordConfig } from '../../src/record/config.js';

const KEY = { CITYAIR_API_KEY: 'record-test-key-0123456789abcdef' };

/** The record's config for these flags, or undefined when it is off; throws ConfigError as the exporter would. */
export function recordConfigOf(
  argv: readonly string[],
  env: Readonly<Record<string, string>> = {},
): RecordConfig | undefined {
  const action = parseCli(['--collector.measurements', ...argv], { ...KEY, ...env });
  if (action.kind !== 'run') throw new Error(`expected a run, got ${action.kind}`);
  return action.config.record?.record;
}
