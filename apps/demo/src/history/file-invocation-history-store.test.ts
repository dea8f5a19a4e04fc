import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolContext, type InvocationObservation } from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';
import { FileInvocationHistoryStore, defaultHistoryDirectory } from './file-invocation-history-store.js';

// renameSync is wrapped (and delegates to the real one) so a test can see or fail the atomic rename.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, renameSync: vi.fn(actual.renameSync) };
});

const deleted = (id: string): InvocationObservation => ({ tool: 'delete_note', outcome: 'executed', target: { kind: 'note', id } });

/** Each test's own directory: these tests never touch the shared os.tmpdir()/milpa-demo. */
let directory = '';
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'milpa-demo-store-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('FileInvocationHistoryStore', () => {
  describe('constructor', () => {
    it('defaults to milpa-demo in the temporary folder and creates nothing until a write', () => {
      expect(new FileInvocationHistoryStore().directory).toBe(join(tmpdir(), 'milpa-demo'));
      expect(defaultHistoryDirectory()).toBe(join(tmpdir(), 'milpa-demo'));
      const store = new FileInvocationHistoryStore({ directory: join(directory, 'later') });
      expect(store.load('r1')).toBeNull();
      expect(readdirSync(directory)).toEqual([]);
    });

    it('throws for a bound that is not a whole number >= 1', () => {
      expect(() => new FileInvocationHistoryStore({ directory, maxRuns: 0 })).toThrow(/maxRuns must be a whole number/);
      expect(() => new FileInvocationHistoryStore({ directory, maxObservationsPerRun: 1.5 })).toThrow(/maxObservationsPerRun/);
    });
  });

  describe('startRun', () => {
    it('opens a complete, empty run that another store on the same directory loads', () => {
      expect(new FileInvocationHistoryStore({ directory: join(directory, 'nested') }).startRun('r1')).toBe(true);
      const history = new FileInvocationHistoryStore({ directory: join(directory, 'nested') }).load('r1');
      expect(history).toMatchObject({ complete: true, length: 0 });
    });

    it('answers false and keeps the history when the run exists', () => {
      const store = new FileInvocationHistoryStore({ directory });
      store.startRun('r1');
      store.append('r1', deleted('2'));
      expect(store.startRun('r1')).toBe(false);
      expect(store.load('r1')?.observations).toEqual([deleted('2')]);
    });

    it('never turns an unreadable run file into a fresh, complete run', () => {
      const store = new FileInvocationHistoryStore({ directory });
      store.startRun('r1');
      writeFileSync(store.fileOf('r1'), '{"version":1,');
      expect(store.startRun('r1')).toBe(false);
      expect(store.load('r1')).toBeNull();
    });

    it('keeps at most maxRuns files, deleting the least recently written', () => {
      const store = new FileInvocationHistoryStore({ directory, maxRuns: 2 });
      store.startRun('old');
      store.startRun('newer');
      utimesSync(store.fileOf('old'), 1_000, 1_000);
      utimesSync(store.fileOf('newer'), 2_000, 2_000);
      expect(store.startRun('newest')).toBe(true);
      expect(store.load('old')).toBeNull();
      expect(store.load('newer')).not.toBeNull();
      expect(store.load('newest')).not.toBeNull();
      expect(readdirSync(directory)).toHaveLength(2);
    });
  });

  describe('load', () => {
    it('answers null for a run it does not know', () => {
      expect(new FileInvocationHistoryStore({ directory }).load('never-opened')).toBeNull();
    });

    it.for<[string, string]>([
      ['not JSON', '{"version":1,"runId":'],
      ['JSON of another shape', '[1,2,3]'],
      ['another version', JSON.stringify({ version: 2, runId: 'r1', complete: true, observations: [] })],
      ['another run', JSON.stringify({ version: 1, runId: 'r2', complete: true, observations: [] })],
      ['a malformed observation', JSON.stringify({ version: 1, runId: 'r1', complete: true, observations: [{ tool: 'delete_note', outcome: 'deleted', target: null }] })],
      ['a malformed target', JSON.stringify({ version: 1, runId: 'r1', complete: true, observations: [{ tool: 'delete_note', outcome: 'executed', target: { kind: 'Note', id: 2 } }] })],
    ])('treats a file holding %s as an unknown run, without throwing', ([, content]) => {
      const store = new FileInvocationHistoryStore({ directory });
      store.startRun('r1');
      writeFileSync(store.fileOf('r1'), content);
      expect(store.load('r1')).toBeNull();
    });
  });

  describe('append', () => {
    it('adds observations in order, keeping tool, outcome and target only', () => {
      const store = new FileInvocationHistoryStore({ directory });
      store.startRun('r1');
      store.append('r1', deleted('2'));
      store.append('r1', { ...deleted('3'), args: { secret: 'x' } } as InvocationObservation);
      const history = store.load('r1');
      expect(history?.complete).toBe(true);
      expect(history?.count({ tool: 'delete_note', outcome: 'executed' })).toBe(2);
      expect(readFileSync(store.fileOf('r1'), 'utf8')).not.toContain('secret');
    });

    it('records a run it does not know as incomplete, and a corrupt one too', () => {
      const store = new FileInvocationHistoryStore({ directory });
      store.append('forged', deleted('2'));
      expect(store.load('forged')).toMatchObject({ complete: false, length: 1 });
      store.startRun('r1');
      writeFileSync(store.fileOf('r1'), 'garbage');
      store.append('r1', deleted('3'));
      expect(store.load('r1')).toMatchObject({ complete: false, observations: [deleted('3')] });
    });

    it('drops the oldest observations past maxObservationsPerRun and marks the run incomplete', () => {
      const store = new FileInvocationHistoryStore({ directory, maxObservationsPerRun: 2 });
      store.startRun('r1');
      for (const id of ['1', '2', '3']) store.append('r1', deleted(id));
      expect(store.load('r1')).toMatchObject({ complete: false, observations: [deleted('2'), deleted('3')] });
    });

    it('writes a temporary file and renames it into place, leaving no temporary file behind', () => {
      const store = new FileInvocationHistoryStore({ directory });
      store.startRun('r1');
      const rename = vi.mocked(renameSync);
      rename.mockClear();
      store.append('r1', deleted('2'));
      expect(rename).toHaveBeenCalledTimes(1);
      const [from, to] = rename.mock.calls[0] as [string, string];
      expect(from).toMatch(/[/\\]\.tmp-\d+-[0-9a-f]{12}$/);
      expect(to).toBe(store.fileOf('r1'));
      expect(readdirSync(directory)).toEqual([store.fileOf('r1').slice(directory.length + 1)]);
    });

    it('keeps the old file whole when the write fails before the rename', () => {
      const store = new FileInvocationHistoryStore({ directory });
      store.startRun('r1');
      store.append('r1', deleted('2'));
      vi.mocked(renameSync).mockImplementationOnce(() => {
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      });
      expect(() => store.append('r1', deleted('3'))).toThrow('disk full');
      expect(store.load('r1')).toMatchObject({ complete: true, observations: [deleted('2')] });
      expect(readdirSync(directory)).toHaveLength(1); // the temporary file is removed too
    });

    it('names the file by a hash of the run id, so an id never becomes a path', () => {
      const store = new FileInvocationHistoryStore({ directory });
      store.append('../../etc/passwd', deleted('2'));
      expect(readdirSync(directory)).toEqual([expect.stringMatching(/^run-[0-9a-f]{32}\.json$/)]);
    });
  });

  describe('in a ToolRegistry', () => {
    it('keeps counting a run across registries, as separate processes would', async () => {
      const first = await createDemoRuntime({ historyStore: new FileInvocationHistoryStore({ directory }) });
      const runId = await first.registry.startRun();
      const context = (): ToolContext => ToolContext.cli().with({ runId });
      for (const id of [2, 3]) expect((await first.registry.call('delete_note', { id }, context())).success).toBe(true);
      const second = await createDemoRuntime({ historyStore: new FileInvocationHistoryStore({ directory }) });
      expect((await second.registry.call('delete_note', { id: 5 }, context())).success).toBe(true);
      const fourth = await second.registry.call('delete_note', { id: 4 }, context());
      expect(fourth.meta).toMatchObject({ rule: 'notes.max_deletions_per_run', reason: 'too_many_deletions' });
    });
  });
});
