// promtool from Debian's prometheus package. Locally a missing binary skips the check; under CI=true it fails.
import { spawnSync } from 'node:child_process';

export function promtoolPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (process.env.CI === 'true')
    throw new Error('promtool is required under CI=true (apt-get install prometheus)');
  return undefined;
}

/** `promtool check metrics` on exposition text: exit code and findings (stderr). */
export function checkMetrics(text: string): { code: number; findings: string } | undefined {
  const promtool = promtoolPath();
  if (!promtool) return undefined;
  const run = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { code: run.status ?? -1, findings: `${run.stderr}${run.stdout}`.trim() };
}
