import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import { openTourState } from './tour-state.js';

let folder = '';
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'milpa-demo-tour-state-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('openTourState', () => {
  describe('without a database', () => {
    it('opens a fresh file in the folder and deletes it, WAL files included, when closed', () => {
      const directory = join(folder, 'state');
      const state = openTourState({ directory });
      expect(state.kept).toBe(false);
      expect(state.stores.path).toMatch(new RegExp(`^${directory.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/tour-\\d+-[0-9a-f]{8}\\.db$`));
      expect(state.stores.history.startRun('r1')).toBe(true); // a write: the WAL files exist now
      expect(readdirSync(directory).length).toBeGreaterThan(1);
      state.close();
      state.close();
      expect(readdirSync(directory)).toEqual([]);
    });

    it('gives two tours at once two files, so neither sees the other', () => {
      const first = openTourState({ directory: folder });
      const second = openTourState({ directory: folder });
      try {
        expect(second.stores.path).not.toBe(first.stores.path);
        first.stores.history.startRun('r1');
        expect(second.stores.history.load('r1')).toBeNull();
      } finally {
        first.close();
        second.close();
      }
    });
  });

  describe('with a database', () => {
    it('keeps a new file after the tour', () => {
      const path = join(folder, 'tour.db');
      const state = openTourState({ directory: folder, database: path });
      expect(state.kept).toBe(true);
      state.stores.history.startRun('r1');
      state.close();
      expect(existsSync(path)).toBe(true);
    });

    it('accepts an empty file', () => {
      const path = join(folder, 'empty.db');
      writeFileSync(path, '');
      openTourState({ directory: folder, database: path }).close();
      expect(existsSync(path)).toBe(true);
    });

    it("refuses a file that holds anything, so a second tour never starts from the first one's state", () => {
      const path = join(folder, 'tour.db');
      openTourState({ directory: folder, database: path }).close();
      let caught: unknown;
      try {
        openTourState({ directory: folder, database: path });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DemoUsageError);
      expect(caught).toMatchObject({
        code: 'STATE_UNAVAILABLE',
        message: `the tour starts from an empty state, and ${path} is not empty`,
        hint: 'delete it to run the tour in it again, or pass --db with a new path',
      });
    });

    it('refuses a path under a file in one line', () => {
      writeFileSync(join(folder, 'notes.txt'), 'plain text');
      const path = join(folder, 'notes.txt', 'tour.db');
      expect(() => openTourState({ directory: folder, database: path })).toThrow(
        `cannot keep the demo's state in ${path}: ${join(folder, 'notes.txt')} is not a folder`,
      );
    });

    it('refuses a folder as the database', () => {
      expect(() => openTourState({ directory: folder, database: folder })).toThrow(
        `cannot keep the demo's state in ${folder}: it is a folder, not a file`,
      );
    });
  });
});
