// Notices that the web configuration's files may have changed. The directories of the config file and of every
// certificate/key/CA file are watched (directory watches survive the rename-into-place that cert renewal tools
// do), and every few seconds a check runs anyway in case a watch missed an event. The caller re-reads and decides
// whether anything really changed; this module only says when to look.
import { type FSWatcher, watch } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';

const DEBOUNCE_MS = 100;

export interface FileWatch {
  /** Watches the directories of these files, and stops watching directories none of them is in any more. */
  readonly follow: (files: readonly string[]) => void;
  readonly close: () => void;
}

export interface FileWatchOptions {
  readonly pollIntervalMs: number;
  /** false: the periodic check alone (for tests, and file systems without change events). */
  readonly watch: boolean;
}

/** Calls `check` after a burst of events in a watched directory settles, and every pollIntervalMs. */
export function watchFiles(check: () => void, log: Logger, options: FileWatchOptions): FileWatch {
  const watchers = new Map<string, FSWatcher>();
  let debounce: NodeJS.Timeout | undefined;
  const poll = setInterval(check, options.pollIntervalMs);
  poll.unref();

  const schedule = (): void => {
    clearTimeout(debounce);
    debounce = setTimeout(check, DEBOUNCE_MS);
    debounce.unref();
  };

  const start = (dir: string): void => {
    try {
      // Any event in the directory triggers a full re-read: editors and cert tools rename temp files into
      // place, so the event's file name is not a reliable filter; the caller's fingerprint absorbs the noise.
      const watcher = watch(dir, { persistent: false }, schedule);
      watcher.on('error', (err) => {
        log.debug({ err, dir }, 'web configuration watch failed; relying on the periodic check');
        watcher.close();
        watchers.delete(dir);
      });
      watchers.set(dir, watcher);
    } catch (err) {
      log.debug({ err, dir }, 'cannot watch directory; relying on the periodic check');
    }
  };

  return {
    follow: (files) => {
      const dirs = new Set(files.map((file) => dirname(file)));
      for (const [dir, watcher] of watchers) {
        if (!dirs.has(dir)) {
          watcher.close();
          watchers.delete(dir);
        }
      }
      if (!options.watch) return;
      for (const dir of dirs) if (!watchers.has(dir)) start(dir);
    },
    close: () => {
      clearTimeout(debounce);
      clearInterval(poll);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
