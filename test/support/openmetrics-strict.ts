// A strict reading of an OpenMetrics 1.0 text with timestamps, as a backfill writes it: each family's HELP and
// TYPE before any of its samples, each family's samples together (none reappears once another has started),
// every sample with a timestamp and every series' samples in increasing time, and `# EOF` last.

export interface StrictReading {
  readonly problems: readonly string[];
  /** The families in the order they appear. */
  readonly families: readonly string[];
  readonly samples: number;
}

const METADATA = /^# (HELP|TYPE|UNIT) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (.*))?$/;
// name, optional {labels} (quoted values may hold escaped quotes), value, timestamp.
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})? (\S+) (\S+)$/;
/** Sample names a family may have besides its own (counters, histograms, summaries, info). */
const SUFFIXES = ['', '_total', '_created', '_count', '_sum', '_bucket', '_info'];
const MAX_PROBLEMS = 10;

export function readStrictOpenMetrics(text: string): StrictReading {
  const problems: string[] = [];
  const say = (line: number, what: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(`line ${line}: ${what}`);
  };
  const families: string[] = [];
  const lastTime = new Map<string, number>();
  let family: string | undefined;
  let sampled = false;
  let samples = 0;
  if (!text.endsWith('# EOF\n')) problems.push('the text does not end with "# EOF" and a line feed');
  const lines = text.split('\n');
  lines.pop();
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    if (line === '# EOF') {
      if (n !== lines.length) say(n, '# EOF before the end');
      continue;
    }
    const meta = METADATA.exec(line);
    if (meta) {
      const name = meta[2] as string;
      if (name !== family) {
        if (families.includes(name)) say(n, `family ${name} appears again`);
        family = name;
        families.push(name);
        sampled = false;
      } else if (sampled) say(n, `${meta[1]} of ${name} after its samples`);
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) {
      say(n, `not a sample: ${line.slice(0, 80)}`);
      continue;
    }
    const [, name, labels = '', value, time] = sample as unknown as string[];
    if (family === undefined || !SUFFIXES.some((s) => `${family}${s}` === name)) {
      say(n, `${name} outside its family (in ${family ?? 'no family'})`);
      continue;
    }
    if (Number.isNaN(Number(value))) say(n, `value ${value} is not a number`);
    const t = Number(time);
    const series = `${name}${labels}`;
    if (!Number.isFinite(t)) say(n, `no timestamp: ${line.slice(0, 80)}`);
    else if (t <= (lastTime.get(series) ?? Number.NEGATIVE_INFINITY))
      say(n, `${series} goes back in time (${t} after ${lastTime.get(series)})`);
    lastTime.set(series, t);
    sampled = true;
    samples++;
  }
  return { problems, families, samples };
}
