// Reads the small files named by settings (the API key, CA certificates, the web configuration and its
// certificates). readFileSync would wait forever for a writer on a FIFO, and read /dev/zero until memory runs out:
// only a regular file is read, and never more than its cap.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file was not read: an errno code such as ENOENT, or what is wrong with it. One line, no path. */
export class SmallFileError extends Error {}

const sizeText = (bytes: number): string =>
  bytes % 1024 ** 2 === 0 ? `${bytes / 1024 ** 2}MiB` : `${Math.ceil(bytes / 1024)}KiB`;

/** The whole file, when it is a regular file of at most maxBytes; else a SmallFileError. */
export function readSmallFile(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO with no writer returns instead of waiting for one.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new SmallFileError((error as NodeJS.ErrnoException).code ?? 'unreadable');
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new SmallFileError('EISDIR');
    if (!stat.isFile()) throw new SmallFileError('not a regular file');
    if (stat.size > maxBytes) throw new SmallFileError(`larger than ${sizeText(maxBytes)}`);
    // The size can change between fstat and read: the buffer grows as needed, to one byte past the cap at most.
    let buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw new SmallFileError(`larger than ${sizeText(maxBytes)}`);
        const grown = Buffer.alloc(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown);
        buffer = grown;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) throw new SmallFileError(`larger than ${sizeText(maxBytes)}`);
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof SmallFileError) throw error;
    throw new SmallFileError((error as NodeJS.ErrnoException).code ?? 'unreadable');
  } finally {
    closeSync(fd);
  }
}
