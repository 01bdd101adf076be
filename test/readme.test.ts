// README.md is the front door: its tables must match the code, and its commands must exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { SETTINGS } from '../src/cli.js';
import { formatDuration } from '../src/config/units.js';
import { EXPORTER_METRICS } from '../src/exposition/catalog.js';
import { SOURCES } from '../src/sources.js';
import { stationTable } from '../src/status/table.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
/** Where a setting's row is: the README, or the page of docs/ of the source it belongs to. */
const pageOf = new Map<unknown, string>();
for (const source of SOURCES)
  if (source.docs !== undefined) {
    const page = read(source.docs);
    for (const s of Object.values(source.settings)) pageOf.set(s, page);
    for (const table of source.metrics) for (const m of Object.values(table)) pageOf.set(m, page);
  }
const pkg = z
  .object({ scripts: z.record(z.string(), z.string()) })
  .parse(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')));
const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every setting with its flag, env variable and default', () => {
    for (const s of Object.values(SETTINGS)) {
      const page = pageOf.get(s) ?? readme;
      const row = page.split('\n').find((l) => l.includes(`\`${s.env}\``) && l.startsWith('|'));
      expect(row, s.env).toBeDefined();
      if (s.flag) expect(row).toContain(`\`--${s.flag}\``);
      if (s.default) expect(row).toContain(`\`${s.default}\``);
      if (s.demoDefault) expect(row).toContain(`(\`${s.demoDefault}\` with \`--demo\`)`);
    }
  });

  it('gives the ceiling of every duration setting, as the settings table has it', () => {
    const paragraph = readme.slice(
      readme.indexOf('each up to a ceiling:'),
      readme.indexOf('An invalid value'),
    );
    // A source with a page of its own gives its ranges there (test/record/docs.test.ts for the record's).
    const ranged = Object.values(SETTINGS).filter((s) => s.range !== undefined && !pageOf.has(s));
    expect(ranged.length).toBeGreaterThanOrEqual(8);
    for (const s of ranged) {
      // Settings that share a ceiling are listed together: the group ends at the next semicolon or full stop.
      const group = paragraph.slice(paragraph.indexOf(`\`--${s.flag}\``)).split(/[;.]\s/)[0] ?? '';
      expect(group, s.flag).toMatch(new RegExp(` ${formatDuration(s.range?.[1] ?? 0)}$`));
    }
  });

  it("gives the status page's row cap as the page has it", () => {
    // The cap, measured: a list longer than any cap, and what the page shows of it.
    const stations = Array.from({ length: 5000 }, (_, i) => ({
      id: i + 1,
      name: `s${i}`,
      tz: '',
      online: i % 2 === 0,
    }));
    const cap = stationTable(stations, false, { q: '' }, 0).shown;
    expect(cap).toBeLessThan(stations.length);
    expect(readme.replace(/\s+/g, ' ')).toContain(
      `It shows at most ${cap.toLocaleString('en')} rows, offline stations first, and says how many more`,
    );
  });

  it('gives every folder of src/ a row in the layout table, and no folder that is gone', () => {
    const folders = readdirSync(new URL('../src/', import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}/`);
    const rows = [...readme.matchAll(/^\| `(src\/[a-z-]+\/)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(folders.sort());
  });

  it('names only files and folders that exist, here and in docs/', () => {
    const docs = readdirSync(new URL('../docs/', import.meta.url)).filter((f) => f.endsWith('.md'));
    const missing: string[] = [];
    for (const file of ['README.md', ...docs.map((d) => `docs/${d}`)]) {
      const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      for (const [, path] of text.matchAll(
        /`((?:src|test|bench|deploy|dashboards|scripts|docs)\/[^`*\s<>]*)`/g,
      )) {
        if (!existsSync(new URL(`../${path}`, import.meta.url))) missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents every metric of the catalog', () => {
    // The engine's own families, and every table of every source of the registry.
    const all = [EXPORTER_METRICS, ...SOURCES.flatMap((s) => s.metrics)].flatMap((table) =>
      Object.values(table),
    );
    for (const m of all) {
      expect(pageOf.get(m) ?? readme, m.name).toContain(`\`${m.name}\``);
    }
  });

  it('lists every alert of the shipped rules files', () => {
    const rulesFile = z.object({
      groups: z.array(z.object({ rules: z.array(z.object({ alert: z.string().optional() })) })),
    });
    const alerts = ['cityair-rules.yml', 'cityair-norms-rules.yml']
      .map((f) =>
        rulesFile.parse(parse(readFileSync(new URL(`../deploy/prometheus/${f}`, import.meta.url), 'utf8'))),
      )
      .flatMap((rules) => rules.groups.flatMap((g) => g.rules.flatMap((r) => (r.alert ? [r.alert] : []))));
    expect(alerts.length).toBeGreaterThan(5);
    for (const alert of alerts) expect(readme, alert).toContain(`| \`${alert}\` |`);
  });

  it('gives quick-start commands that exist, and CI runs the same test command', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
    expect(pkg.scripts.demo).toContain('--demo');
    expect(pkg.scripts.test).toBeDefined();
    expect(ci).toMatch(/^npm test$/m);
    expect(ci).toMatch(/^npm ci\b/m);
  });
});
