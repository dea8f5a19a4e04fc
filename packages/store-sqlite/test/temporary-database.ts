import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir for one test's database files, and its removal. */
export function temporaryDirectory(): { readonly path: (name: string) => string; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'milpa-store-sqlite-'));
  return {
    path: (name) => join(dir, name),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
