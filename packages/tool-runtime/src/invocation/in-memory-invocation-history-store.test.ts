import type { InvocationObservation } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { InMemoryInvocationHistoryStore } from './in-memory-invocation-history-store.js';

const read = (id: string): InvocationObservation => ({ tool: 'read_note', outcome: 'executed', target: { kind: 'note', id } });

describe('InMemoryInvocationHistoryStore', () => {
  describe('startRun', () => {
    it('opens a complete, empty run once, and never resets a known one', () => {
      const store = new InMemoryInvocationHistoryStore();
      expect(store.startRun('r1')).toBe(true);
      store.append('r1', read('1'));
      expect(store.startRun('r1')).toBe(false);
      expect(store.load('r1')).toMatchObject({ complete: true, length: 1 });
    });
  });

  describe('load', () => {
    it('returns null for a run it does not know', () => {
      expect(new InMemoryInvocationHistoryStore().load('nope')).toBeNull();
    });

    it('returns a snapshot that later appends do not change', () => {
      const store = new InMemoryInvocationHistoryStore();
      store.startRun('r1');
      const before = store.load('r1');
      store.append('r1', read('1'));
      expect(before?.length).toBe(0);
      expect(store.load('r1')?.observations).toEqual([read('1')]);
    });
  });

  describe('append', () => {
    it('records a run it does not know as incomplete', () => {
      const store = new InMemoryInvocationHistoryStore();
      store.append('ghost', read('1'));
      expect(store.load('ghost')).toMatchObject({ complete: false, length: 1 });
      expect(store.startRun('ghost')).toBe(false);
    });

    it('keeps only tool, outcome and target of what it is given', () => {
      const store = new InMemoryInvocationHistoryStore();
      store.startRun('r1');
      store.append('r1', { ...read('1'), args: { secret: 'x' } } as InvocationObservation);
      expect(Object.keys(store.load('r1')?.observations[0] ?? {}).sort()).toEqual(['outcome', 'target', 'tool']);
    });

    it('drops the oldest observation past the per-run bound and marks the run incomplete', () => {
      const store = new InMemoryInvocationHistoryStore({ maxObservationsPerRun: 2 });
      store.startRun('r1');
      store.append('r1', read('1'));
      store.append('r1', read('2'));
      expect(store.load('r1')?.complete).toBe(true);
      store.append('r1', read('3'));
      expect(store.load('r1')).toMatchObject({ complete: false, observations: [read('2'), read('3')] });
    });
  });

  describe('bounds', () => {
    it('forgets the least recently used run when full, which then loads as unknown', () => {
      const store = new InMemoryInvocationHistoryStore({ maxRuns: 2 });
      store.startRun('a');
      store.startRun('b');
      store.load('a');
      store.startRun('c');
      expect(store.size).toBe(2);
      expect(store.load('b')).toBeNull();
      expect(store.load('a')).not.toBeNull();
      expect(store.load('c')).not.toBeNull();
    });

    it('forgets a run idle for its TTL, and keeps one touched in time', () => {
      let now = 0;
      const store = new InMemoryInvocationHistoryStore({ idleTtlSeconds: 10, now: () => now });
      store.startRun('idle');
      store.startRun('busy');
      now = 9_000;
      store.append('busy', read('1'));
      now = 10_000;
      expect(store.load('idle')).toBeNull();
      expect(store.load('busy')).toMatchObject({ complete: true, length: 1 });
      now = 19_999;
      expect(store.load('busy')).not.toBeNull();
    });

    it('opens a fresh complete run under an id whose run has expired', () => {
      let now = 0;
      const store = new InMemoryInvocationHistoryStore({ idleTtlSeconds: 1, now: () => now });
      store.startRun('r');
      store.append('r', read('1'));
      now = 1_000;
      expect(store.startRun('r')).toBe(true);
      expect(store.load('r')).toMatchObject({ complete: true, length: 0 });
    });

    it.each([
      ['maxRuns', { maxRuns: 0 }],
      ['maxObservationsPerRun', { maxObservationsPerRun: 1.5 }],
      ['idleTtlSeconds', { idleTtlSeconds: -1 }],
    ])('refuses a %s that is not a whole number >= 1', (name, options) => {
      expect(() => new InMemoryInvocationHistoryStore(options)).toThrow(name);
    });
  });
});
