import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdtemp, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes `records` as a JSON Lines file (one JSON value per line) readable only by its owner
 * (mode 0600), and returns its path. Without `directory`, the file goes in a new private folder
 * (mode 0700) under the OS temp folder; with one, it is created there under a random name, never
 * over an existing file.
 *
 * @example
 * const path = await writeJsonLinesSpill('db-query', rows); // /tmp/milpa-db-query-Ab12Cd/db-query-5f0c….jsonl
 */
export async function writeJsonLinesSpill(prefix: string, records: readonly unknown[], directory?: string): Promise<string> {
  const folder = directory ?? (await mkdtemp(join(tmpdir(), `milpa-${prefix}-`)));
  const path = join(folder, `${prefix}-${randomBytes(8).toString('hex')}.jsonl`);
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  } finally {
    await handle.close();
  }
  return path;
}
