// The numbers the documentation gives about the monitoring kit and the demo, derived from the files and the code
// they describe: a dashboard, a recording rule or a demo station added without the text following fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { demoStations, demoStationsAt } from '../../src/demo/stations.js';
import { COVERAGE, DATA_CAPTURE } from '../../src/norms/table.js';
import { parseRules, ROOT, recordingRules } from './model.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const kitDoc = readFileSync(join(ROOT, 'docs/dashboards-and-alerts.md'), 'utf8');
const kit = kitDoc.replace(/\s+/g, ' ');

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
];
const word = (n: number): string => WORDS[n] ?? String(n);

const dashboardTitles = readdirSync(join(ROOT, 'dashboards'))
  .filter((f) => f.endsWith('.json'))
  .map(
    (f) =>
      z.object({ title: z.string() }).parse(JSON.parse(readFileSync(join(ROOT, 'dashboards', f), 'utf8')))
        .title,
  );

describe('README: the monitoring kit', () => {
  it('counts the dashboards of dashboards/ and names each one', () => {
    expect(readme).toContain(`\`dashboards/\` holds ${word(dashboardTitles.length)} Grafana dashboards`);
    for (const title of dashboardTitles) expect(readme).toContain(`*${title}*`);
  });
});

describe('docs/dashboards-and-alerts.md', () => {
  it('lists files that exist', () => {
    const links = [...kitDoc.matchAll(/^\| \[`([^`]+)`\]\(([^)]+)\)/gm)];
    expect(links.length).toBeGreaterThanOrEqual(dashboardTitles.length + 2);
    for (const [, shown, target] of links) {
      expect(existsSync(join(ROOT, shown ?? '')), shown).toBe(true);
      expect(existsSync(join(ROOT, 'docs', target ?? '')), target).toBe(true);
    }
  });

  it('has a row for every recording rule of the shipped rules files', () => {
    const records = readdirSync(join(ROOT, 'deploy/prometheus'))
      .filter((f) => /^cityair.*-rules\.yml$|^cityair-rules\.yml$/.test(f))
      .flatMap((f) => recordingRules(parseRules(readFileSync(join(ROOT, 'deploy/prometheus', f), 'utf8'))));
    expect(records.length).toBeGreaterThanOrEqual(4);
    // A row may shorten a name to its last part (`…:mean8h`) below a row that spells out the rest.
    const rowFor = (name: string): boolean => {
      const prefix = name.slice(0, name.lastIndexOf(':'));
      const short = `…${name.slice(name.lastIndexOf(':'))}`;
      return (
        kitDoc.includes(`| \`${name}\` |`) ||
        (kitDoc.includes(`| \`${short}\` |`) && kitDoc.includes(`\`${prefix}:`))
      );
    };
    for (const r of records) expect(rowFor(r.record), r.record).toBe(true);
  });

  it('counts the dashboards the Compose stack provisions', () => {
    expect(kit).toContain(`the ${word(dashboardTitles.length)} dashboards provisioned`);
  });

  it("gives the demo's station and offline counts, minute by minute, as the simulator makes them", () => {
    const offline = (nowMs: number): number => demoStationsAt(nowMs).filter((p) => !p.isOnline).length;
    const steady = demoStations().filter((p) => !p.isOnline).length;
    const changing = demoStationsAt(60_000).filter(
      (p, i) => p.isOnline !== demoStations()[i]?.isOnline,
    ).length;
    const [even, odd] = [offline(0), offline(60_000)].sort((a, b) => a - b);
    expect(kit).toContain(
      `(${demoStations().length} simulated stations: ${steady} offline, and ${changing} others that change state every minute, so ${even} and ${odd} offline by turns)`,
    );
  });
});

describe('the data capture the norms’ means need, wherever the docs state it', () => {
  const docs = ['README.md', 'docs/dashboards-and-alerts.md', 'docs/runbook.md', 'docs/backfill.md'].map(
    (f) => [f, readFileSync(join(ROOT, f), 'utf8').replace(/\s+/g, ' ')],
  );
  const needed = new Map(Object.values(COVERAGE).map((c) => [c.slices, c.atLeast]));

  it.each(docs)('%s gives the table’s share and counts', (_file, text) => {
    // "75 % of its window", "the 75 % data capture"; other shares in the docs are written without a space.
    for (const [, share] of text.matchAll(/(\d+) % (?:data capture|of (?:its|their))/g))
      expect(Number(share) / 100).toBe(DATA_CAPTURE);
    // "18 of its 24 hours", "6 of 8", "274 of the 365 days".
    for (const [phrase, n, of] of text.matchAll(/(\d+) of (?:its |the )?(\d+)\b/g)) {
      if (needed.has(Number(of))) expect(Number(n), phrase).toBe(needed.get(Number(of)));
    }
  });

  it('states them in the norms section and the runbook', () => {
    const [kitText, runbookText] = ['docs/dashboards-and-alerts.md', 'docs/runbook.md'].map(
      (f) => docs.find(([name]) => name === f)?.[1] ?? '',
    );
    for (const c of Object.values(COVERAGE)) expect(kitText).toContain(`${c.atLeast} of the ${c.slices}`);
    expect(runbookText).toContain(`${COVERAGE['24h'].atLeast} of its 24 hours`);
  });
});
