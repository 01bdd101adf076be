// A logger for in-process tests that keeps each line's level, fields and message, for a module that takes a
// pino Logger and only calls its level methods.
import type { Logger } from 'pino';

export interface LogLine {
  readonly level: string;
  readonly fields: object;
  readonly msg: string;
}

export function recordingLog(): { readonly log: Logger; readonly lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (fields: object, msg: string): void => {
      lines.push({ level, fields, msg });
    };
  const log = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
  } as unknown as Logger;
  return { log, lines };
}
