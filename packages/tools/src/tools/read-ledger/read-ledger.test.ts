import { MilpaError } from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReadLedger } from './read-ledger.js';

describe('ReadLedger', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  describe('record and has', () => {
    it('remembers a path per run and nothing for other runs or paths', () => {
      const ledger = new ReadLedger();
      ledger.record('run-a', 'src/a.ts');

      expect(ledger.has('run-a', 'src/a.ts')).toBe(true);
      expect(ledger.has('run-b', 'src/a.ts')).toBe(false);
      expect(ledger.has('run-a', 'src/b.ts')).toBe(false);
    });
  });

  describe('bounds', () => {
    it('forgets the least recently used run when more than maxRuns are remembered', () => {
      const ledger = new ReadLedger({ maxRuns: 2 });
      ledger.record('run-1', 'a');
      ledger.record('run-2', 'a');
      ledger.record('run-1', 'b');
      ledger.record('run-3', 'a');

      expect(ledger.runCount).toBe(2);
      expect(ledger.has('run-2', 'a')).toBe(false);
      expect(ledger.has('run-1', 'a')).toBe(true);
      expect(ledger.has('run-3', 'a')).toBe(true);
    });

    it('forgets the oldest read path when more than maxPathsPerRun are remembered, a re-read counting as new', () => {
      const ledger = new ReadLedger({ maxPathsPerRun: 2 });
      ledger.record('run', 'a');
      ledger.record('run', 'b');
      ledger.record('run', 'a');
      ledger.record('run', 'c');

      expect(ledger.has('run', 'b')).toBe(false);
      expect(ledger.has('run', 'a')).toBe(true);
      expect(ledger.has('run', 'c')).toBe(true);
    });

    it('forgets a run unused for ttlMs, and a use keeps it', () => {
      const ledger = new ReadLedger({ ttlMs: 1000 });
      ledger.record('kept', 'a');
      ledger.record('dropped', 'a');
      vi.advanceTimersByTime(600);
      ledger.record('kept', 'b');
      vi.advanceTimersByTime(600);

      expect(ledger.has('dropped', 'a')).toBe(false);
      expect(ledger.has('kept', 'a')).toBe(true);
      vi.advanceTimersByTime(1000);
      expect(ledger.has('kept', 'a')).toBe(false);
      expect(ledger.runCount).toBe(0);
    });

    it.each([[{ maxRuns: 0 }], [{ maxPathsPerRun: 1.5 }], [{ ttlMs: -1 }], [{ maxRuns: Number.NaN }]])(
      'throws INVALID_ARGUMENT for %o',
      (options) => {
        expect(() => new ReadLedger(options)).toThrow(MilpaError);
      },
    );
  });

  describe('forgetRun', () => {
    it('forgets everything the run read', () => {
      const ledger = new ReadLedger();
      ledger.record('run', 'a');
      ledger.forgetRun('run');
      expect(ledger.has('run', 'a')).toBe(false);
    });
  });
});
