import type { FileHandle } from 'node:fs/promises';

/** What {@link readUpTo} read: the bytes, and whether the file goes on past them. */
export interface BoundedRead {
  /** The first bytes of the file, at most the requested number. */
  readonly bytes: Buffer;
  /** True when the file holds more bytes than were returned. */
  readonly more: boolean;
}

/**
 * Reads at most `maxBytes` from the start of an open file, never more into memory, and tells
 * whether more follows (one extra byte is asked for). The size on record is not trusted: a file
 * may grow while it is read.
 */
export async function readUpTo(handle: FileHandle, maxBytes: number): Promise<BoundedRead> {
  const buffer = Buffer.alloc(maxBytes + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return { bytes: buffer.subarray(0, Math.min(filled, maxBytes)), more: filled > maxBytes };
}
