import { MilpaError, VerificationRequest, VerificationResult, type VerificationRecord } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VerificationError } from '../errors/verification-error.js';
import { InMemoryVerificationStore } from './in-memory-verification-store.js';

const HOUR = 3_600_000;
const T0 = new Date('2026-08-15T14:00:00Z');

function record(id: string, createdAt: Date, changes: Partial<VerificationRecord> = {}): VerificationRecord {
  return Object.freeze({
    id,
    request: new VerificationRequest('gate:x', 'single', {}, null, id),
    createdAt,
    expiresAt: null,
    requiredApprovals: 1,
    approvals: [],
    result: null,
    resolvedAt: null,
    ...changes,
  });
}

function after(ms: number): Date {
  return new Date(T0.getTime() + ms);
}

describe('InMemoryVerificationStore', () => {
  describe('constructor', () => {
    it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('throws INVALID_ARGUMENT when retentionMs is %s', (retentionMs) => {
      expect(() => new InMemoryVerificationStore({ retentionMs })).toThrow(MilpaError);
    });

    it.each([0, -1, 1.5, Number.NaN])('throws INVALID_ARGUMENT when maxPending is %s', (maxPending) => {
      expect(() => new InMemoryVerificationStore({ maxPending })).toThrow(/maxPending must be a whole number/);
    });
  });

  describe('constructor: messages', () => {
    it('names the bad retentionMs and the INVALID_ARGUMENT code', () => {
      expect(() => new InMemoryVerificationStore({ retentionMs: -5 })).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: 'InMemoryVerificationStore retentionMs must be a non-negative number of milliseconds, got -5.',
        }),
      );
    });

    it('names the bad maxPending and the INVALID_ARGUMENT code', () => {
      expect(() => new InMemoryVerificationStore({ maxPending: 0.5 })).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: 'InMemoryVerificationStore maxPending must be a whole number of at least 1 or Infinity, got 0.5.',
        }),
      );
    });

    it('accepts a retention of 0 and a maxPending of 1', () => {
      const store = new InMemoryVerificationStore({ retentionMs: 0, maxPending: 1 });
      expect(store.open(record('a', T0))).toBe(true);
      expect(() => store.open(record('b', T0))).toThrow(VerificationError);
    });
  });

  describe('open: maxPending', () => {
    const decision = {
      kind: 'grant' as const,
      principal: 'agent:reviewer',
      reason: null,
      at: after(10),
      subject: null,
      result: VerificationResult.pass('human_verifier', 'agent:reviewer'),
    };

    function refusal(store: InMemoryVerificationStore, opened: VerificationRecord): VerificationError {
      try {
        store.open(opened);
      } catch (error) {
        if (VerificationError.isVerificationError(error)) return error;
        throw error;
      }
      throw new Error('expected open() to throw');
    }

    it('refuses a request without a deadline with RATE_LIMITED when maxPending of them are pending', () => {
      const store = new InMemoryVerificationStore({ maxPending: 2 });
      store.open(record('a', T0));
      store.open(record('b', T0));
      const error = refusal(store, record('c', T0));
      expect(error).toMatchObject({ code: 'RATE_LIMITED', kind: 'too_many_pending', requestId: 'c' });
      expect(error.message).toBe(
        "Verification request 'c' refused: 2 requests without a deadline are already pending; " +
          'decide some, or give requests a deadline (HumanVerifier ttlMs).',
      );
      expect(store.get('c')).toBeNull();
      expect(store.size).toBe(2);
    });

    it('takes a new request once a pending one is decided', () => {
      const store = new InMemoryVerificationStore({ maxPending: 1 });
      store.open(record('a', T0));
      expect(store.decide('a', decision).status).toBe('resolved');
      expect(store.open(record('b', after(20)))).toBe(true);
      expect(store.pendingWithoutDeadline).toBe(1);
    });

    it('keeps counting a request that a grant leaves pending', () => {
      const store = new InMemoryVerificationStore({ maxPending: 1 });
      store.open(record('a', T0, { requiredApprovals: 2 }));
      expect(store.decide('a', decision).status).toBe('recorded');
      expect(store.pendingWithoutDeadline).toBe(1);
      expect(refusal(store, record('b', after(20))).kind).toBe('too_many_pending');
    });

    it('does not count requests with a deadline or already resolved', () => {
      const store = new InMemoryVerificationStore({ maxPending: 1 });
      store.open(record('open-ended', T0));
      expect(store.open(record('deadline', T0, { expiresAt: after(60_000) }))).toBe(true);
      expect(store.open(record('auto', T0, { result: VerificationResult.pass(), resolvedAt: T0 }))).toBe(true);
      expect(store.pendingWithoutDeadline).toBe(1);
    });

    it('holds 10,000 requests without a deadline by default and refuses the next', () => {
      const store = new InMemoryVerificationStore();
      for (let index = 0; index < 10_000; index++) store.open(record(`r${index}`, T0));
      expect(refusal(store, record('one-too-many', T0)).code).toBe('RATE_LIMITED');
    });

    it('never refuses when maxPending is Infinity', () => {
      const store = new InMemoryVerificationStore({ maxPending: Number.POSITIVE_INFINITY });
      for (let index = 0; index < 10_001; index++) store.open(record(`r${index}`, T0));
      expect(store.pendingWithoutDeadline).toBe(10_001);
    });
  });

  describe('open: expiry at scale', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('never walks the held records when it opens and decides requests among 20,000 pending ones', () => {
      const store = new InMemoryVerificationStore({ maxPending: Number.POSITIVE_INFINITY });
      const walks = [
        vi.spyOn(Map.prototype, 'values'),
        vi.spyOn(Map.prototype, 'entries'),
        vi.spyOn(Map.prototype, 'keys'),
        vi.spyOn(Map.prototype, 'forEach'),
        vi.spyOn(Map.prototype, Symbol.iterator),
      ];
      for (let index = 0; index < 20_000; index++) store.open(record(`r${index}`, after(index)));
      store.decide('r0', {
        kind: 'reject',
        principal: 'agent:reviewer',
        reason: null,
        at: after(20_000),
        subject: null,
        result: VerificationResult.fail('no'),
      });
      for (const walk of walks) expect(walk).not.toHaveBeenCalled();
      expect(store.size).toBe(20_000);
    });

    it('removes a bounded number of expired records per operation after a mass expiry, and all of them over later ones', () => {
      const store = new InMemoryVerificationStore({ retentionMs: HOUR });
      for (let index = 0; index < 5_000; index++)
        store.open(record(`done${index}`, T0, { result: VerificationResult.pass(), resolvedAt: T0 }));
      store.open(record('first-after', after(HOUR + 1)));
      // One open (a lookup and an insert, each sweeping up to 256) never visits all 5,000...
      expect(store.size).toBe(5_000 - 2 * 256 + 1);
      for (let index = 0; index < 9; index++) store.open(record(`next${index}`, after(HOUR + 2 + index)));
      // ...and the rest go within a few more operations.
      expect(store.size).toBe(10);
    });
  });

  describe('open', () => {
    it('stores a record and returns true when the id is free', () => {
      const store = new InMemoryVerificationStore();
      const opened = record('a', T0);
      expect(store.open(opened)).toBe(true);
      expect(store.get('a')).toBe(opened);
      expect(store.size).toBe(1);
    });

    it('returns false and keeps the first record when the id is taken', () => {
      const store = new InMemoryVerificationStore();
      const first = record('a', T0);
      store.open(first);
      expect(store.open(record('a', after(1)))).toBe(false);
      expect(store.get('a')).toBe(first);
    });

    it('sweeps records resolved longer ago than the retention', () => {
      const store = new InMemoryVerificationStore({ retentionMs: HOUR });
      store.open(record('old', T0, { result: VerificationResult.pass(), resolvedAt: T0 }));
      store.open(record('recent', T0, { result: VerificationResult.pass(), resolvedAt: after(HOUR / 2) }));
      store.open(record('new', after(HOUR + 1)));
      expect(store.get('old')).toBeNull();
      expect(store.get('recent')).not.toBeNull();
      expect(store.size).toBe(2);
    });

    it('sweeps pending records expired longer ago than the retention and keeps pending ones without expiry', () => {
      const store = new InMemoryVerificationStore({ retentionMs: HOUR });
      store.open(record('expired', T0, { expiresAt: after(1000) }));
      store.open(record('forever', T0));
      store.open(record('new', after(HOUR + 1001)));
      expect(store.get('expired')).toBeNull();
      expect(store.get('forever')).not.toBeNull();
    });

    it('keeps a finished record through the last millisecond of its retention and forgets it one millisecond later', () => {
      const store = new InMemoryVerificationStore({ retentionMs: HOUR });
      store.open(record('done', T0, { result: VerificationResult.pass(), resolvedAt: T0 }));
      store.open(record('at-boundary', after(HOUR)));
      expect(store.get('done')).not.toBeNull();
      store.open(record('past-boundary', after(HOUR + 1)));
      expect(store.get('done')).toBeNull();
    });

    it('frees a swept id for reuse', () => {
      const store = new InMemoryVerificationStore({ retentionMs: 0 });
      store.open(record('a', T0, { result: VerificationResult.pass(), resolvedAt: T0 }));
      expect(store.open(record('a', after(1)))).toBe(true);
      expect(store.get('a')?.result).toBeNull();
    });
  });

  describe('get', () => {
    it('returns null when the id is unknown', () => {
      expect(new InMemoryVerificationStore().get('nope')).toBeNull();
    });
  });

  describe('decide', () => {
    const decision = {
      kind: 'grant' as const,
      principal: 'agent:reviewer',
      reason: null,
      at: after(1),
      subject: null,
      result: VerificationResult.pass('human_verifier', 'agent:reviewer'),
    };

    it('stores the next record when the decision is accepted', () => {
      const store = new InMemoryVerificationStore();
      store.open(record('a', T0));
      const outcome = store.decide('a', decision);
      expect(outcome.status).toBe('resolved');
      expect(store.get('a')).toBe(outcome.record);
      expect(store.get('a')?.result).toBe(decision.result);
    });

    it('forgets a record resolved by a decision once its retention has passed', () => {
      const store = new InMemoryVerificationStore({ retentionMs: HOUR });
      store.open(record('a', T0));
      store.decide('a', decision);
      store.open(record('later', after(1 + HOUR + 1)));
      expect(store.get('a')).toBeNull();
    });

    it('refuses a decision as not_found when the record finished longer ago than the retention', () => {
      const store = new InMemoryVerificationStore({ retentionMs: HOUR });
      store.open(record('a', T0, { expiresAt: after(1_000) }));
      expect(store.decide('a', { ...decision, at: after(2_000) })).toMatchObject({ status: 'refused', refusal: 'expired' });
      expect(store.decide('a', { ...decision, at: after(1_000 + HOUR + 1) })).toEqual({
        status: 'refused',
        refusal: 'not_found',
        record: null,
      });
    });

    it('changes nothing when the decision is refused', () => {
      const store = new InMemoryVerificationStore();
      const opened = record('a', T0, { result: VerificationResult.fail('no'), resolvedAt: T0 });
      store.open(opened);
      expect(store.decide('a', decision)).toMatchObject({ status: 'refused', refusal: 'already_resolved' });
      expect(store.get('a')).toBe(opened);
      expect(store.decide('missing', decision)).toEqual({ status: 'refused', refusal: 'not_found', record: null });
      expect(store.size).toBe(1);
    });

    it('stops counting a request without a deadline once it is resolved, and never counts one with a deadline', () => {
      const store = new InMemoryVerificationStore({ maxPending: 2 });
      store.open(record('open-ended', T0));
      store.open(record('deadline', T0, { expiresAt: after(HOUR) }));
      expect(store.pendingWithoutDeadline).toBe(1);
      expect(store.decide('deadline', decision).status).toBe('resolved');
      expect(store.pendingWithoutDeadline).toBe(1);
      expect(store.decide('open-ended', decision).status).toBe('resolved');
      expect(store.pendingWithoutDeadline).toBe(0);
      expect(store.decide('open-ended', decision).status).toBe('refused');
      expect(store.decide('missing', decision).status).toBe('refused');
      expect(store.pendingWithoutDeadline).toBe(0);
    });

    it('keeps counting a request without a deadline while a grant leaves it pending', () => {
      const store = new InMemoryVerificationStore({ maxPending: 1 });
      store.open(record('two', T0, { requiredApprovals: 2 }));
      expect(store.decide('two', decision).status).toBe('recorded');
      expect(store.pendingWithoutDeadline).toBe(1);
      expect(() => store.open(record('next', after(2)))).toThrow(VerificationError);
    });

    it('keeps a resolved record for the retention after its resolution, not after its deadline', () => {
      const store = new InMemoryVerificationStore({ retentionMs: HOUR });
      store.open(record('a', T0, { expiresAt: after(10 * 60_000) }));
      store.decide('a', decision);
      store.open(record('probe-1', after(1 + HOUR)));
      expect(store.get('a')).not.toBeNull();
      store.open(record('probe-2', after(1 + HOUR + 1)));
      expect(store.get('a')).toBeNull();
    });

    it('never turns its clock back when a decision carries an earlier time', () => {
      // More expired records than one operation sweeps, so some are still held when the early decisions come.
      const store = new InMemoryVerificationStore({ retentionMs: 0 });
      const ids = Array.from({ length: 2_000 }, (_, index) => `r-${index}`);
      for (const id of ids) store.open(record(id, T0, { expiresAt: after(1_000) }));
      store.open(record('b', after(5_000)));
      expect(store.size).toBeGreaterThan(1);
      const statuses = new Set(ids.map((id) => store.decide(id, { ...decision, at: after(500) }).status));
      expect([...statuses]).toEqual(['refused']);
      expect(ids.every((id) => store.get(id) === null)).toBe(true);
    });
  });
});
