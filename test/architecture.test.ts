// The layout of src/ is the architecture, and this holds it there: a small engine that knows no data source, one
// folder per thing the exporter reads, and no import cycles. A new folder fails here until it is given a place.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SOURCES } from '../src/sources.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Shared by every slice, in order: an engine folder imports only the ones before it, never a slice. */
const ENGINE = ['config', 'runtime', 'log', 'web', 'upstream', 'refresh', 'exposition', 'collector', 'http'];
/**
 * One folder per data source (the registry's, in its order) or reader of their data, in order: a slice may import
 * the engine and earlier slices.
 */
// The norms are a table that imports nothing, placed first: the readings' status fragment colours readings by
// them. The status page, the backfill and the report read the sources; the report reads the store with the
// backfill's settings and judges by the norms.
const SLICES = ['norms', ...SOURCES.map((s) => s.name), 'status', 'backfill', 'report'];
/** The simulated API: outside data, built only from the engine's settings. */
const DEMO = 'demo';
/** Files directly in src/: the entry point and the composition root, which may import anything. */
const ROOT = '.';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const folderOf = (file: string): string => {
  const rel = relative(SRC, file).split(/[\\/]/);
  return rel.length === 1 ? ROOT : (rel[0] as string);
};

/** Every relative import of a file, static or dynamic, resolved to the .ts file it names. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] as string);
  return specs.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

function allowed(from: string, to: string): boolean {
  if (from === to || from === ROOT) return true;
  if (ENGINE.includes(from)) return ENGINE.includes(to) && ENGINE.indexOf(to) < ENGINE.indexOf(from);
  if (from === DEMO) return ENGINE.includes(to);
  const i = SLICES.indexOf(from);
  return ENGINE.includes(to) || SLICES.slice(0, i).includes(to);
}

describe('the layout of src/', () => {
  it('gives every folder a place: engine, slice, demo or root', () => {
    const known = new Set([...ENGINE, ...SLICES, DEMO, ROOT]);
    expect([...new Set(files.map(folderOf))].filter((f) => !known.has(f))).toEqual([]);
  });

  it('keeps the engine free of slices and in its order, and slices to the engine and earlier slices', () => {
    const broken: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (!allowed(from, to)) broken.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('sees the imports it judges: every relative import names a file that exists', () => {
    const missing = [...graph].flatMap(([file, imports]) =>
      imports.filter((t) => !graph.has(t)).map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`),
    );
    expect(missing).toEqual([]);
  });
});
