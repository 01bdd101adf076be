import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type FileWatch, watchFiles } from '../../src/web/file-watch.js';
import { eventually } from '../support/http.js';
import { recordingLog } from '../support/log-lines.js';

const HOUR = 3_600_000;
let dir: string;
let watch: FileWatch | undefined;
afterEach(() => {
  watch?.close();
  watch = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A watch over a fresh directory, counting the checks it asks for. */
function watching(options: { pollIntervalMs: number; watch: boolean }) {
  dir = mkdtempSync(join(tmpdir(), 'cityair-watch-'));
  let checks = 0;
  watch = watchFiles(() => checks++, recordingLog().log, options);
  return { checks: () => checks, watch };
}

describe('watchFiles', () => {
  it('asks for a check once a burst of changes in a followed file’s directory settles', async () => {
    const w = watching({ pollIntervalMs: HOUR, watch: true });
    w.watch.follow([join(dir, 'web.yml')]);
    // A certificate renewal's way: write a temporary file, rename it into place.
    writeFileSync(join(dir, 'web.yml.tmp'), 'a');
    renameSync(join(dir, 'web.yml.tmp'), join(dir, 'web.yml'));
    writeFileSync(join(dir, 'web.yml'), 'b');
    await eventually(async () => (w.checks() > 0 ? true : undefined), 5000, 20);
    await sleep(300);
    // One check for the burst; two if a loaded machine spread it over more than the debounce.
    expect(w.checks()).toBeLessThanOrEqual(2);
  });

  it('checks on its interval with no change event at all', async () => {
    const w = watching({ pollIntervalMs: 30, watch: false });
    w.watch.follow([join(dir, 'web.yml')]);
    await eventually(async () => (w.checks() >= 3 ? true : undefined), 5000, 10);
  });

  it('stops watching a directory no followed file is in any more', async () => {
    const w = watching({ pollIntervalMs: HOUR, watch: true });
    const other = join(dir, 'certs');
    mkdirSync(other);
    w.watch.follow([join(dir, 'web.yml'), join(other, 'tls.crt')]);
    w.watch.follow([join(dir, 'web.yml')]);
    writeFileSync(join(other, 'tls.crt'), 'new');
    await sleep(400);
    expect(w.checks()).toBe(0);
  });

  it('asks nothing after close', async () => {
    const w = watching({ pollIntervalMs: 20, watch: true });
    w.watch.follow([join(dir, 'web.yml')]);
    w.watch.close();
    writeFileSync(join(dir, 'web.yml'), 'x');
    await sleep(200);
    expect(w.checks()).toBe(0);
  });
});
