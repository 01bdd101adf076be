// The layout of src/ is the architecture, and this holds it there: a small engine that knows no data source, one
// folder per thing the exporter reads, and no import cycles. A new folder fails here until it is given a place.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
// backfill's settings and judges by the norms. A source that writes with the backfill's walk and sink and reads the
// store as the report does (the record) is built with the others but layered after those it imports.
const READERS = ['status', 'backfill', 'report'];
const AFTER_READERS = new Set(['record']);
const SOURCE_NAMES: string[] = SOURCES.map((s) => s.name);
const SLICES = [
  'norms',
  ...SOURCE_NAMES.filter((name) => !AFTER_READERS.has(name)),
  ...READERS,
  ...SOURCE_NAMES.filter((name) => AFTER_READERS.has(name)),
];
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

// The test rule of the README: the behaviour of src/<folder>/<module>.ts is tested in test/<folder>/<module>.test.ts.
// A module without one is listed here with the reason its behaviour is tested elsewhere, or has none of its own.
const TEST = fileURLToPath(new URL('./', import.meta.url));

/** Modules with no test file of their own, and why. */
const WITHOUT_OWN_TEST: Readonly<Record<string, string>> = {
  'main.ts': 'the entry point: every spawned test (*.e2e.test.ts) starts it as users do',
  'app.ts':
    'the composition root: the spawned tests run it whole, test/support/in-process.ts assembles its server',
  'v8-settings.ts':
    'V8 flags set at start-up: their effect is memory, proven by npm run bench (docs/benchmarks.md)',
  'backfill/sink.ts': 'the Sink contract: types only',
  'backfill/snappyjs.d.ts': 'type declarations for snappyjs',
  'status/view.ts': "the status page's view: types only",
  'backfill/command.ts':
    "wiring of the backfill's parts: run whole by backfill.e2e.test.ts and remote-write.e2e.test.ts",
  'report/command.ts': "wiring of the report's parts: run whole by report.e2e.test.ts",
};

const testFileOf = (module: string): string => join(TEST, module.replace(/(\.d)?\.ts$/, '.test.ts'));
const modules = files.map((f) => relative(SRC, f).split(/[\\/]/).join('/'));

describe('the test of a module', () => {
  it('is test/<folder>/<module>.test.ts, unless the module is listed without one', () => {
    const listed = new Set(Object.keys(WITHOUT_OWN_TEST));
    expect(modules.filter((m) => !listed.has(m) && !existsSync(testFileOf(m)))).toEqual([]);
  });

  it('imports the module it is named for, itself or through a helper of test/support', () => {
    const reaches = (text: string, fromTest: boolean, m: string): boolean =>
      text.includes(
        `'${fromTest ? '../'.repeat(m.split('/').length) : '../../'}src/${m.replace(/\.ts$/, '.js')}'`,
      );
    const unrelated = modules
      .filter((m) => existsSync(testFileOf(m)))
      .filter((m) => {
        const text = readFileSync(testFileOf(m), 'utf8');
        const helpers = [...text.matchAll(/'(?:\.\.\/)+support\/([\w-]+)\.js'/g)].map((h) =>
          readFileSync(join(TEST, 'support', `${h[1]}.ts`), 'utf8'),
        );
        return !reaches(text, true, m) && !helpers.some((h) => reaches(h, false, m));
      });
    expect(unrelated).toEqual([]);
  });

  it('keeps its list true: every listed module exists and still has no test file', () => {
    const listed = Object.keys(WITHOUT_OWN_TEST);
    expect(listed.filter((m) => !modules.includes(m))).toEqual([]);
    expect(listed.filter((m) => existsSync(testFileOf(m)))).toEqual([]);
  });
});
