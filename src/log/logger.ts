// pino, writing to stderr as exporters do, in JSON or logfmt; every line passes through scrub() so that the API
// key cannot leave the process in a log line, whatever code logged it.
import { type Logger, pino } from 'pino';
import type { LogFormat, LogLevel } from '../config/config.js';
import { type Secret, scrub } from '../config/secret.js';

export interface LogSink {
  write(line: string): void;
}

export function createLogger(
  options: { level: LogLevel; format: LogFormat; secret?: Secret | undefined },
  sink: LogSink = process.stderr,
): Logger {
  const destination = {
    write(line: string): void {
      const clean = scrub(line, options.secret);
      sink.write(options.format === 'logfmt' ? toLogfmt(clean) : clean);
    },
  };
  return pino(
    {
      level: options.level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

function logfmtValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === '' || /[\s"=\\]/.test(text) ? JSON.stringify(text) : text;
}

export function toLogfmt(jsonLine: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const { time, level, msg, ...rest } = record;
  const head = [`time=${logfmtValue(time)}`, `level=${logfmtValue(level)}`, `msg=${logfmtValue(msg ?? '')}`];
  const tail = Object.entries(rest).map(([k, v]) => `${k}=${logfmtValue(v)}`);
  return `${[...head, ...tail].join(' ')}\n`;
}
