// Every PromQL query the documentation shows a reader: the ```promql blocks of README.md and docs/, and the inline
// `code` that is a PromQL expression (a condition in an alert table, a query in the runbook). The tests parse each
// one and run it against a real Prometheus, so an example that does not work fails the suite.
import { readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);

export interface DocQuery {
  /** File and line, e.g. README.md:152. */
  readonly where: string;
  readonly expr: string;
}

/** README.md and every Markdown file of docs/, relative to the repository. */
export function documentationFiles(): string[] {
  const docs = readdirSync(new URL('docs/', ROOT)).filter((f) => f.endsWith('.md'));
  return ['README.md', ...docs.sort().map((f) => `docs/${f}`)];
}

/**
 * The queries of a ```promql block with the index of their first line: a comment line or a blank line ends one,
 * and the lines in between are one expression (an indented line continues the line above).
 */
export function blockQueries(block: string): { readonly expr: string; readonly line: number }[] {
  const queries: { expr: string; line: number }[] = [];
  let current: string[] = [];
  let first = 0;
  const lines = block.split('\n');
  const end = (): void => {
    if (current.length > 0) queries.push({ expr: current.join('\n'), line: first });
    current = [];
  };
  lines.forEach((line, i) => {
    if (line.trim() === '' || line.trim().startsWith('#')) end();
    else {
      if (current.length === 0) first = i;
      current.push(line);
    }
  });
  end();
  return queries;
}

// An inline span is PromQL when it starts like an expression over a metric: a function call, a selector with
// matchers or a range, or a name and a binary operator written with spaces around it (so that paths such as
// `src/app.ts` and types such as `A<T>` are not taken). Shell lines, URLs, YAML (`key: value`), brace expansions
// (`lag_{min,max}_seconds`), a function named with empty brackets and Grafana's label_values() are not queries.
const INLINE_PROMQL =
  /^(?:[a-z_]+\s*(?:(?:by|without)\s*\([^)]*\)\s*)?\(|[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{|\[|\s+(?:==|!=|>=|<=|>|<|\*|\/|\+|-|and|or|unless)\s)|\(\s*[a-zA-Z_])/;
const NOT_PROMQL = /:\/\/|\s\|\s|--|\$\(|\bcurl\b|\bgrep\b|\w:\s|\}\w|^label_values\(|^\w+\(\)$/;

export function inlineQueries(markdownLine: string): string[] {
  const spans = [...markdownLine.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)].map((m) =>
    (m[1] ?? '').replace(/\\\|/g, '|'),
  );
  return spans.filter((s) => INLINE_PROMQL.test(s) && !NOT_PROMQL.test(s));
}

export function documentedQueries(file: string): DocQuery[] {
  const lines = readFileSync(new URL(file, ROOT), 'utf8').split('\n');
  const found: DocQuery[] = [];
  let fence: { readonly lang: string; readonly start: number; readonly body: string[] } | undefined;
  lines.forEach((line, i) => {
    const opening = /^\s*```(\w*)\s*$/.exec(line);
    if (fence === undefined && opening) {
      fence = { lang: opening[1] ?? '', start: i + 2, body: [] };
    } else if (fence !== undefined && /^\s*```\s*$/.test(line)) {
      if (fence.lang === 'promql') {
        for (const q of blockQueries(fence.body.join('\n'))) {
          found.push({ where: `${file}:${fence.start + q.line}`, expr: q.expr });
        }
      }
      fence = undefined;
    } else if (fence !== undefined) {
      fence.body.push(line);
    } else {
      for (const expr of inlineQueries(line)) found.push({ where: `${file}:${i + 1}`, expr });
    }
  });
  return found;
}

export function allDocumentedQueries(): DocQuery[] {
  return documentationFiles().flatMap(documentedQueries);
}
