// A Dockerfile reader just large enough for the policy and PID 1 tests: no Docker engine runs here, so the
// Dockerfile itself is the thing under test. Follows BuildKit's rules for the parts this repository uses.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Instruction {
  /** Upper-cased keyword: FROM, RUN, COPY... */
  readonly keyword: string;
  /** 1-based line where the instruction starts. */
  readonly line: number;
  /** Leading --name=value options (--from, --chown, --interval...). */
  readonly flags: Readonly<Record<string, string>>;
  /** Everything after the keyword and its options, continuation lines joined. */
  readonly rest: string;
}

export interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly from: Instruction;
  /** The instructions after FROM, up to the next FROM. */
  readonly instructions: readonly Instruction[];
}

export interface Dockerfile {
  /** Instructions before the first FROM (global ARGs). */
  readonly preamble: readonly Instruction[];
  readonly stages: readonly Stage[];
}

/** Splits into logical instructions: comment lines dropped, backslash continuations joined. */
function logicalLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let current: { line: number; text: string } | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comments and blank lines may sit inside a continued instruction; BuildKit drops them there too.
    if (trimmed.startsWith('#') || trimmed === '') return;
    const continues = /\\\s*$/.test(raw);
    const body = continues ? raw.replace(/\\\s*$/, '') : raw;
    if (current) current.text += body;
    else current = { line: index + 1, text: body };
    if (!continues) {
      out.push(current);
      current = undefined;
    }
  });
  if (current) out.push(current);
  return out;
}

function parseInstruction(line: number, text: string): Instruction {
  const match = /^\s*(\S+)\s*([\s\S]*)$/.exec(text);
  if (!match?.[1]) throw new Error(`line ${line}: empty instruction`);
  let rest = match[2] ?? '';
  const flags: Record<string, string> = {};
  for (;;) {
    const flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest);
    if (!flag?.[1]) break;
    flags[flag[1]] = flag[2] ?? 'true';
    rest = rest.slice(flag[0].length);
  }
  return { keyword: match[1].toUpperCase(), line, flags, rest: rest.trim() };
}

export function parseDockerfile(text: string): Dockerfile {
  if (/^#\s*escape\s*=/im.test(text)) throw new Error('an escape directive is not supported by this reader');
  const preamble: Instruction[] = [];
  const stages: {
    image: string;
    name: string | undefined;
    from: Instruction;
    instructions: Instruction[];
  }[] = [];
  for (const { line, text: body } of logicalLines(text)) {
    const ins = parseInstruction(line, body);
    if (ins.keyword === 'FROM') {
      const parts = ins.rest.split(/\s+/);
      const asIndex = parts.findIndex((p) => p.toUpperCase() === 'AS');
      stages.push({
        image: parts[0] ?? '',
        name: asIndex > 0 ? parts[asIndex + 1] : undefined,
        from: ins,
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (stage) stage.instructions.push(ins);
    else preamble.push(ins);
  }
  return { preamble, stages };
}

export function readRepoDockerfile(): Dockerfile {
  return parseDockerfile(readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8'));
}

/** The argv of an exec-form (JSON array) command, or undefined for the shell form. */
export function execForm(rest: string): string[] | undefined {
  if (!rest.trimStart().startsWith('[')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(rest);
  } catch {
    // Docker falls back to the shell form when the JSON is invalid, so this is not exec form.
    return undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every((p): p is string => typeof p === 'string')) return undefined;
  return parsed;
}

export function finalStage(file: Dockerfile): Stage {
  const stage = file.stages.at(-1);
  if (!stage) throw new Error('the Dockerfile has no FROM');
  return stage;
}

export function instructions(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((i) => i.keyword === keyword);
}

/** ENV of a stage as the container sees it (only the key=value form, which this repository uses). */
export function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const ins of instructions(stage, 'ENV')) {
    for (const pair of ins.rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
      const [, key, value] = pair;
      if (key !== undefined && value !== undefined)
        env[key] = value.startsWith('"') ? JSON.parse(value) : value;
    }
  }
  return env;
}

/** argv the container starts with: ENTRYPOINT then CMD, both exec form (the policy test checks that). */
export function startCommand(stage: Stage): string[] {
  const entry = instructions(stage, 'ENTRYPOINT').at(-1);
  const cmd = instructions(stage, 'CMD').at(-1);
  return [...(entry ? (execForm(entry.rest) ?? []) : []), ...(cmd ? (execForm(cmd.rest) ?? []) : [])];
}

export interface Healthcheck {
  readonly instruction: Instruction;
  /** undefined for HEALTHCHECK NONE or a shell-form command. */
  readonly argv: string[] | undefined;
}

export function healthcheck(stage: Stage): Healthcheck | undefined {
  const ins = instructions(stage, 'HEALTHCHECK').at(-1);
  if (!ins) return undefined;
  const cmd = /^CMD\s+([\s\S]*)$/i.exec(ins.rest);
  return { instruction: ins, argv: cmd?.[1] === undefined ? undefined : execForm(cmd[1]) };
}

/**
 * Whether .dockerignore keeps `path` out of the build context, following Docker's rules: patterns are
 * relative to the context, `*` and `?` stay within one path segment, `**` spans any number, a pattern
 * matching a parent directory covers everything below it, `!` re-includes, and the last match wins.
 */
export function isIgnored(dockerignore: string, path: string): boolean {
  const rules = dockerignore
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const negated = l.startsWith('!');
      const pattern = (negated ? l.slice(1) : l).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      return { negated, regex: globToRegExp(pattern) };
    });
  const segments = path.split('/');
  const candidates = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const rule of rules) {
    if (candidates.some((c) => rule.regex.test(c))) ignored = !rule.negated;
  }
  return ignored;
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === '*' && pattern[i + 1] === '*') {
      // "**/" may also match nothing, so that **/x covers a top-level x.
      if (pattern[i + 2] === '/') {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new Error(`unterminated [ in .dockerignore pattern ${pattern}`);
      source += `[${pattern
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\')}]`;
      i = end;
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * Expands $X, ${X}, ${X:-word} and ${X:+word} the way Docker does in LABEL, ENV and the like. Unset
 * variables expand to nothing, as in Docker.
 */
export function expandVariables(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (
      _m,
      braced: string | undefined,
      op: string | undefined,
      word: string | undefined,
      bare: string | undefined,
    ) => {
      const value = vars[braced ?? bare ?? ''] ?? '';
      if (op === '-') return value === '' ? (word ?? '') : value;
      if (op === '+') return value === '' ? '' : (word ?? '');
      return value;
    },
  );
}

/** Build arguments a stage sees when none is passed: its own ARG lines with their defaults. */
export function defaultArgs(stage: Stage): Record<string, string> {
  const args: Record<string, string> = {};
  for (const ins of instructions(stage, 'ARG')) {
    const [, name, value] = /^([A-Za-z_][A-Za-z0-9_]*)(?:=("(?:[^"\\]|\\.)*"|\S*))?$/.exec(ins.rest) ?? [];
    if (name !== undefined) args[name] = value?.startsWith('"') ? JSON.parse(value) : (value ?? '');
  }
  return args;
}

/** The LABELs of a stage (key="value" form), variables expanded with the given build arguments. */
export function stageLabels(stage: Stage, args: Readonly<Record<string, string>>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const ins of instructions(stage, 'LABEL')) {
    for (const [, key, value] of ins.rest.matchAll(/([^\s=]+)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
      if (key === undefined || value === undefined) continue;
      labels[key] = expandVariables(value.startsWith('"') ? JSON.parse(value) : value, args);
    }
  }
  return labels;
}
