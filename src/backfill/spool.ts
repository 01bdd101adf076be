// Bytes on their way out, one lane per metric family: a chunk filled in place by the renderer, and full chunks
// written in order to the lane's destination (the output itself, or a spool file of the family), each chunk
// reused once written. Spool files are unlinked as soon as they are opened: the open descriptor is all that
// reaches them, so they vanish with the process however it ends, a crash or SIGKILL included.
import { close, open, read, unlink, write } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { promisify } from 'node:util';

/** Where a lane's full chunks go; resolves once the bytes are handed over and the chunk may be filled again. */
export type Destination = (bytes: Uint8Array) => Promise<void>;

const writeFd = promisify(write);
const readFd = promisify(read);
const openFd = promisify(open);
const closeFd = promisify(close);

/** Appends at the descriptor's position (a file opened for writing, a spool). */
export function fileDestination(fd: number): Destination {
  return async (bytes) => {
    // A regular file takes all at once; a short write is followed up all the same.
    for (let done = 0; done < bytes.length; )
      done += (await writeFd(fd, bytes, done, bytes.length - done, null)).bytesWritten;
  };
}

/** Standard output, or any stream: resolves when the stream is done with the chunk. */
export function streamDestination(out: Writable): Destination {
  // A full disk or a reader gone (ENOSPC, EPIPE) reaches the write's callback, which fails the run; the stream also
  // emits it as an event, which would end the process with a stack trace if nothing listened.
  out.on('error', () => undefined);
  return (bytes) =>
    new Promise((resolve, reject) => {
      out.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
}

/** 256 KiB: a few hundred sample lines per write, and nine lanes stay within a few MiB. */
export const CHUNK_BYTES = 256 * 1024;
/** Full chunks waiting to be written, all lanes together, before a writer is made to wait: 8 MiB. */
const MAX_QUEUED_CHUNKS = 32;

export interface Lane {
  chunk: Uint8Array;
  /** Bytes of `chunk` filled. */
  at: number;
  readonly destination: Destination;
  /** The writes of this lane, in order: each starts when the one before has ended. */
  tail: Promise<void>;
}

/** The lanes of one output, with the chunks they share. */
export interface Lanes {
  readonly lanes: readonly Lane[];
  readonly free: Uint8Array[];
  queued: number;
  failed: Error | undefined;
}

export function newLanes(destinations: readonly Destination[]): Lanes {
  const lanes = destinations.map((destination) => ({
    chunk: new Uint8Array(CHUNK_BYTES),
    at: 0,
    destination,
    tail: Promise.resolve(),
  }));
  return { lanes, free: [], queued: 0, failed: undefined };
}

/** Makes room for `bytes` more in the lane's chunk: a full chunk is sent on, and the lane takes an empty one. */
export function reserve(all: Lanes, lane: Lane, bytes: number): void {
  if (lane.at + bytes <= lane.chunk.length) return;
  send(all, lane);
  const reused = bytes <= CHUNK_BYTES ? all.free.pop() : undefined;
  lane.chunk = reused ?? new Uint8Array(Math.max(CHUNK_BYTES, bytes));
}

/** Sends what the lane's chunk holds (the lane then needs a new chunk: see reserve and flushLanes). */
function send(all: Lanes, lane: Lane): void {
  const chunk = lane.chunk;
  const bytes = chunk.subarray(0, lane.at);
  lane.at = 0;
  all.queued++;
  lane.tail = lane.tail.then(async () => {
    try {
      if (all.failed === undefined) await lane.destination(bytes);
    } catch (error) {
      all.failed ??= error as Error;
    } finally {
      all.queued--;
      if (chunk.length === CHUNK_BYTES) all.free.push(chunk);
    }
  });
}

/** Backpressure: resolves at once unless too many chunks wait, then when every lane has written its queue. */
export async function whenWritable(all: Lanes): Promise<void> {
  if (all.queued > MAX_QUEUED_CHUNKS) await Promise.all(all.lanes.map((l) => l.tail));
  if (all.failed) throw all.failed;
}

/** Sends every lane's partial chunk and waits until all is written. */
export async function flushLanes(all: Lanes): Promise<void> {
  for (const lane of all.lanes) {
    if (lane.at === 0) continue;
    send(all, lane);
    lane.chunk = all.free.pop() ?? new Uint8Array(CHUNK_BYTES);
  }
  await Promise.all(all.lanes.map((l) => l.tail));
  if (all.failed) throw all.failed;
}

/** A spool file in `dir`, already unlinked; its descriptor reads and writes it. */
export async function openSpool(dir: string, name: string): Promise<number> {
  const path = join(dir, name);
  const fd = await openFd(path, 'wx+', 0o600);
  try {
    await promisify(unlink)(path);
  } catch (error) {
    await closeFd(fd);
    throw error;
  }
  return fd;
}

/** Copies a spool from its start into `to`, a chunk at a time, then closes it. */
export async function drainSpool(fd: number, to: Destination): Promise<void> {
  const chunk = new Uint8Array(CHUNK_BYTES * 4);
  try {
    for (let position = 0; ; ) {
      const { bytesRead } = await readFd(fd, chunk, 0, chunk.length, position);
      if (bytesRead === 0) return;
      await to(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    await closeFd(fd);
  }
}

export const closeSpool = (fd: number): Promise<void> => closeFd(fd).catch(() => undefined);
