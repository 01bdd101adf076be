import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHUNK_BYTES,
  type Destination,
  drainSpool,
  fileDestination,
  flushLanes,
  newLanes,
  openSpool,
  reserve,
  streamDestination,
  whenWritable,
} from '../../src/backfill/spool.js';

const dir = mkdtempSync(join(tmpdir(), 'cityair-spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A destination keeping what it is given, copied (chunks are reused once written). */
function kept(): { destination: Destination; text: () => string; writes: () => number } {
  const parts: Buffer[] = [];
  return {
    destination: async (bytes) => {
      parts.push(Buffer.from(bytes));
    },
    text: () => Buffer.concat(parts).toString(),
    writes: () => parts.length,
  };
}

/** Writes `text` into the lane as a renderer does: room first, then the bytes in place. */
function put(all: ReturnType<typeof newLanes>, index: number, text: string): void {
  const lane = all.lanes[index];
  if (!lane) throw new Error('no lane');
  const bytes = Buffer.from(text);
  reserve(all, lane, bytes.length);
  lane.chunk.set(bytes, lane.at);
  lane.at += bytes.length;
}

describe('lanes', () => {
  it('keep each lane’s bytes in order to its own destination', async () => {
    const [a, b] = [kept(), kept()];
    const all = newLanes([a.destination, b.destination]);
    for (let i = 0; i < 5; i++) {
      put(all, 0, `a${i}\n`);
      put(all, 1, `b${i}\n`);
    }
    expect(a.writes()).toBe(0);
    await flushLanes(all);
    expect(a.text()).toBe('a0\na1\na2\na3\na4\n');
    expect(b.text()).toBe('b0\nb1\nb2\nb3\nb4\n');
  });

  it('send a chunk on when it is full, and take writes larger than a chunk whole', async () => {
    const a = kept();
    const all = newLanes([a.destination]);
    const line = `${'x'.repeat(99)}\n`;
    const lines = Math.floor(CHUNK_BYTES / line.length) * 3;
    for (let i = 0; i < lines; i++) put(all, 0, line);
    const big = 'y'.repeat(CHUNK_BYTES * 2);
    put(all, 0, big);
    await flushLanes(all);
    expect(a.writes()).toBeGreaterThanOrEqual(3);
    expect(a.text()).toBe(line.repeat(lines) + big);
  });

  it('fail the writer at the next chance once a destination fails, and write nothing more', async () => {
    let calls = 0;
    const all = newLanes([
      async () => {
        calls++;
        throw new Error('ENOSPC');
      },
    ]);
    for (let i = 0; i < 40; i++) put(all, 0, 'z'.repeat(CHUNK_BYTES));
    await expect(flushLanes(all)).rejects.toThrow('ENOSPC');
    await expect(whenWritable(all)).rejects.toThrow('ENOSPC');
    expect(calls).toBe(1);
  });

  it('make a writer wait while too many chunks are queued', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const all = newLanes([() => gate]);
    for (let i = 0; i < 40; i++) put(all, 0, 'w'.repeat(CHUNK_BYTES));
    let waited = false;
    const writable = whenWritable(all).then(() => {
      waited = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(waited).toBe(false);
    release();
    await writable;
    expect(waited).toBe(true);
  });
});

describe('spool files', () => {
  it('leave no name behind, and give back what was written through them', async () => {
    const fd = await openSpool(dir, 'family-1.spool');
    expect(readdirSync(dir)).toEqual([]);
    await fileDestination(fd)(Buffer.from('cityair_aqi{id="1"} 3 1.0\n'));
    await fileDestination(fd)(Buffer.from('cityair_aqi{id="2"} 4 1.0\n'));
    const out = kept();
    await drainSpool(fd, out.destination);
    expect(out.text()).toBe('cityair_aqi{id="1"} 3 1.0\ncityair_aqi{id="2"} 4 1.0\n');
  });

  it('drain to a file destination', async () => {
    const fd = await openSpool(dir, 'family-2.spool');
    const bytes = Buffer.alloc(CHUNK_BYTES * 5, 'q');
    await fileDestination(fd)(bytes);
    const target = join(dir, 'out.om');
    const outFd = openSync(target, 'w');
    await drainSpool(fd, fileDestination(outFd));
    closeSync(outFd);
    expect(readFileSync(target).equals(bytes)).toBe(true);
  });
});

describe('streamDestination', () => {
  it('resolves once the stream took the bytes, and rejects when it fails', async () => {
    const got: string[] = [];
    const ok = new Writable({
      write(chunk: Buffer, _e, done) {
        got.push(chunk.toString());
        done();
      },
    });
    await streamDestination(ok)(Buffer.from('a'));
    expect(got).toEqual(['a']);
    const broken = new Writable({
      write(_chunk, _e, done) {
        done(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
      },
    });
    await expect(streamDestination(broken)(Buffer.from('b'))).rejects.toThrow('EPIPE');
  });
});
