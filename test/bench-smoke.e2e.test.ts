// `npm run bench --quick` end to end with tiny lists: it must produce its tables (stations, the readings round of
// 200 stations with its cached scrapes, and a backfill) without problems. Timing is
// never asserted here: the machine is shared and noisy.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BENCH = fileURLToPath(new URL('../dist-bench/bench/main.js', import.meta.url));

describe('npm run bench -- --quick', () => {
  // Flat memory takes 5,000 scrapes to show and is proven by the full `npm run bench` (docs/benchmarks.md).
  it('prints the tables of every phase without problems', { timeout: 120_000 }, () => {
    const run = spawnSync(process.execPath, [BENCH, '--quick', '--skip-memory'], {
      encoding: 'utf8',
      timeout: 110_000,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.status, out).toBe(0);
    expect(run.stdout).toMatch(/^\| stations \| mode +\| +n \| median ms \| p99 ms \|/m);
    for (const mode of ['lower bound', 'on-demand', 'cached']) {
      expect(run.stdout, mode).toMatch(new RegExp(`^\\| 200 +\\| ${mode} +\\|`, 'm'));
    }
    // Every station read once in the round, and the scrapes after it carry reading series.
    expect(run.stdout).toMatch(/^\| 200 +\| +16 \| +200 \|/m);
    expect(run.stdout).toMatch(/^\| 200 +\| cached \+ readings \| +[1-9][\d,]* \|/m);
    // The backfill of 20 stations' two days, with its own CPU and the simulator's.
    expect(run.stdout).toContain('Backfill of 20 stations × 2 days');
    expect(run.stdout).toMatch(/^\| 1 \| [1-9][\d,]* \| [1-9][\d,]* \| [1-9][\d,]* \|( [\d.,]+ \|){7}$/m);
    expect(run.stdout).not.toMatch(/memory flat/);
    expect(run.stdout).not.toContain('Problems:');
  });

  it('writes its tables between the markers of a document and leaves the prose alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-bench-doc-'));
    const doc = join(dir, 'benchmarks.md');
    writeFileSync(
      doc,
      'Prose above.\n<!-- bench:readings -->\nold table\n<!-- /bench:readings -->\nProse below.\n',
    );
    const run = spawnSync(process.execPath, [BENCH, '--quick', '--phases=readings', `--out=${doc}`], {
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(doc, 'utf8');
    expect(text.startsWith('Prose above.\n<!-- bench:readings -->\n- Machine:')).toBe(true);
    expect(text).toMatch(/\| cached \+ readings \|/);
    expect(text).not.toContain('old table');
    expect(text.endsWith('<!-- /bench:readings -->\nProse below.\n')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a bad flag with usage and exit code 2', () => {
    const run = spawnSync(process.execPath, [BENCH, '--sizes=ten'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: npm run bench');
  });
});
