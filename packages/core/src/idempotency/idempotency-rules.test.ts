import { describe, expect, it } from 'vitest';
import type { IdempotencyClaim, IdempotencyRecord } from '../contracts/idempotency-store.js';
import type { ToolResultJson } from '../result/tool-result.js';
import { completeIdempotencyRecord, decideIdempotencyBegin, mayReleaseIdempotencyRecord } from './idempotency-rules.js';

const T0 = 1_800_000_000_000;
const claim = (change: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  key: 'agent:7|k1',
  toolName: 'create_invoice',
  principal: 'agent:7',
  argumentsDigest: 'd1',
  owner: 'o1',
  at: new Date(T0),
  leaseMs: 1_000,
  retentionMs: 5_000,
  ...change,
});
const RESULT: ToolResultJson = { success: true, data: { id: 1 }, message: null, error: null, meta: {} };

function started(): IdempotencyRecord {
  const { next } = decideIdempotencyBegin(null, claim());
  if (next === null) throw new Error('expected a record');
  return next;
}

describe('decideIdempotencyBegin', () => {
  it('starts a free key with a frozen in-flight record whose lease and retention follow the claim', () => {
    const { answer, next } = decideIdempotencyBegin(null, claim());
    expect(answer).toEqual({ status: 'started' });
    expect(next).toEqual({
      key: 'agent:7|k1',
      toolName: 'create_invoice',
      principal: 'agent:7',
      argumentsDigest: 'd1',
      state: 'in_flight',
      owner: 'o1',
      result: null,
      startedAt: new Date(T0),
      leaseExpiresAt: new Date(T0 + 1_000),
      forgetAt: new Date(T0 + 6_000),
    });
    expect(Object.isFrozen(next)).toBe(true);
  });

  it('checks the binding before the state: a conflict wins over in flight and replay', () => {
    const record = started();
    expect(decideIdempotencyBegin(record, claim({ toolName: 'x' })).answer).toEqual({ status: 'conflict', reason: 'tool_differs' });
    expect(decideIdempotencyBegin(record, claim({ principal: null })).answer).toEqual({ status: 'conflict', reason: 'principal_differs' });
    expect(decideIdempotencyBegin(record, claim({ argumentsDigest: 'd2' })).answer).toEqual({
      status: 'conflict',
      reason: 'arguments_differ',
    });
  });

  it('answers in_flight through the lease end, abandoned after, and changes nothing', () => {
    const record = started();
    expect(decideIdempotencyBegin(record, claim({ owner: 'o2', at: new Date(T0 + 1_000) }))).toEqual({
      answer: { status: 'in_flight' },
      next: null,
    });
    expect(decideIdempotencyBegin(record, claim({ owner: 'o2', at: new Date(T0 + 1_001) }))).toEqual({
      answer: { status: 'abandoned' },
      next: null,
    });
  });

  it('replays a completed key and starts a forgotten one afresh', () => {
    const completed = completeIdempotencyRecord(started(), 'o1', RESULT, new Date(T0 + 10), 100);
    expect(decideIdempotencyBegin(completed, claim({ at: new Date(T0 + 109) })).answer).toEqual({ status: 'replay', result: RESULT });
    const fresh = decideIdempotencyBegin(completed, claim({ owner: 'o2', argumentsDigest: 'd2', at: new Date(T0 + 110) }));
    expect(fresh.answer).toEqual({ status: 'started' });
    expect(fresh.next?.owner).toBe('o2');
  });
});

describe('completeIdempotencyRecord', () => {
  it("completes only the owner's in-flight record, and only once", () => {
    const record = started();
    expect(completeIdempotencyRecord(record, 'o2', RESULT, new Date(T0), 100)).toBeNull();
    const completed = completeIdempotencyRecord(record, 'o1', RESULT, new Date(T0 + 5), 100);
    expect(completed).toMatchObject({ state: 'completed', result: RESULT, forgetAt: new Date(T0 + 105) });
    expect(completeIdempotencyRecord(completed, 'o1', RESULT, new Date(T0 + 6), 100)).toBeNull();
    expect(completeIdempotencyRecord(null, 'o1', RESULT, new Date(T0), 100)).toBeNull();
  });

  it('refuses a forgotten record', () => {
    expect(completeIdempotencyRecord(started(), 'o1', RESULT, new Date(T0 + 6_000), 100)).toBeNull();
  });
});

describe('mayReleaseIdempotencyRecord', () => {
  it('lets only the owner release an in-flight, unforgotten record', () => {
    const record = started();
    expect(mayReleaseIdempotencyRecord(record, 'o1', new Date(T0))).toBe(true);
    expect(mayReleaseIdempotencyRecord(record, 'o2', new Date(T0))).toBe(false);
    expect(mayReleaseIdempotencyRecord(record, 'o1', new Date(T0 + 6_000))).toBe(false);
    expect(mayReleaseIdempotencyRecord(completeIdempotencyRecord(record, 'o1', RESULT, new Date(T0), 100), 'o1', new Date(T0))).toBe(false);
    expect(mayReleaseIdempotencyRecord(null, 'o1', new Date(T0))).toBe(false);
  });
});
