import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import { openDemoStores } from './open-demo-stores.js';

let folder = '';
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'milpa-demo-open-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The refusal `open` throws: a STATE_UNAVAILABLE DemoUsageError with a one-line message. */
function refusalOf(open: () => unknown): DemoUsageError {
  let caught: unknown;
  try {
    open();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DemoUsageError);
  const error = caught as DemoUsageError;
  expect(error.code).toBe('STATE_UNAVAILABLE');
  expect(error.message).not.toContain('\n');
  expect(error.hint).toMatch(/--db/);
  return error;
}

describe('openDemoStores', () => {
  it('creates the database in an existing folder and opens every store on it', () => {
    const path = join(folder, 'state.db');
    const stores = openDemoStores(path);
    try {
      expect(stores.path).toBe(path);
      expect(existsSync(path)).toBe(true);
      expect(stores.history.startRun('r1')).toBe(true);
    } finally {
      stores.close();
    }
    const again = openDemoStores(path);
    try {
      expect(again.history.load('r1')).toMatchObject({ complete: true, length: 0 });
    } finally {
      again.close();
    }
  });

  it('creates a missing folder, readable by this user only, when asked to', () => {
    const nested = join(folder, 'a', 'b');
    openDemoStores(join(nested, 'state.db'), { createFolder: true }).close();
    expect(existsSync(join(nested, 'state.db'))).toBe(true);
    expect(statSync(nested).mode & 0o777).toBe(0o700);
  });

  it('refuses a path whose folder does not exist, and creates nothing', () => {
    const error = refusalOf(() => openDemoStores(join(folder, 'missing', 'state.db')));
    expect(error.message).toBe(
      `cannot keep the demo's state in ${join(folder, 'missing', 'state.db')}: the folder ${join(folder, 'missing')} does not exist`,
    );
    expect(existsSync(join(folder, 'missing'))).toBe(false);
  });

  it('refuses a folder', () => {
    mkdirSync(join(folder, 'dir.db'));
    expect(refusalOf(() => openDemoStores(join(folder, 'dir.db'))).message).toBe(
      `cannot keep the demo's state in ${join(folder, 'dir.db')}: it is a folder, not a file`,
    );
  });

  it('refuses a path under a file, with or without createFolder', () => {
    writeFileSync(join(folder, 'notes.txt'), 'plain text');
    const path = join(folder, 'notes.txt', 'state.db');
    expect(refusalOf(() => openDemoStores(path)).message).toBe(
      `cannot keep the demo's state in ${path}: ${join(folder, 'notes.txt')} is not a folder`,
    );
    expect(refusalOf(() => openDemoStores(join(folder, 'notes.txt', 'sub', 'state.db'), { createFolder: true })).message).toMatch(
      /the folder .+ cannot be created \(ENOTDIR\)$/,
    );
  });

  it('refuses a file that is not a SQLite database and leaves it as it was', () => {
    const path = join(folder, 'notes.txt');
    const text = 'These are my notes, not a database.\n'.repeat(200);
    writeFileSync(path, text);
    expect(refusalOf(() => openDemoStores(path)).message).toBe(
      `cannot keep the demo's state in ${path}: the file is not a SQLite database`,
    );
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('refuses a place where no file can be created', () => {
    // /proc takes no new files, whoever asks (root included, who ignores permission bits).
    expect(refusalOf(() => openDemoStores('/proc/milpa-demo-state.db')).message).toBe(
      "cannot keep the demo's state in /proc/milpa-demo-state.db: the file cannot be created or opened there",
    );
  });

  it('refuses an empty path', () => {
    expect(refusalOf(() => openDemoStores('  ')).message).toBe(`cannot keep the demo's state in "  ": the path is empty`);
  });
});
