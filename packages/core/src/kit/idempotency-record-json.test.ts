import { describe, expect, it } from 'vitest';
import type { IdempotencyRecord } from '../contracts/idempotency-store.js';
import { idempotencyRecordToJson, readIdempotencyRecordJson } from './idempotency-record-json.js';

const AT = Date.UTC(2026, 0, 2, 3, 4, 5);

const completed: IdempotencyRecord = {
  key: 'agent:7:invoice-7',
  toolName: 'create_invoice',
  principal: 'agent:7',
  argumentsDigest: 'digest',
  state: 'completed',
  owner: 'owner-1',
  result: { success: true, data: { invoice: 9 }, message: null, error: null, meta: {} },
  startedAt: new Date(AT),
  leaseExpiresAt: new Date(AT + 1_000),
  forgetAt: new Date(AT + 60_000),
};

describe('idempotencyRecordToJson', () => {
  it('writes times as epoch milliseconds', () => {
    expect(idempotencyRecordToJson(completed)).toMatchObject({ startedAt: AT, leaseExpiresAt: AT + 1_000, forgetAt: AT + 60_000 });
  });
});

describe('readIdempotencyRecordJson', () => {
  it('reads back, through JSON text, the record that was written, frozen', () => {
    const read = readIdempotencyRecordJson(JSON.parse(JSON.stringify(idempotencyRecordToJson(completed))));
    expect(read).toEqual(completed);
    expect(Object.isFrozen(read)).toBe(true);
  });

  it('answers null for a value that is not such a record, or whose state and result disagree', () => {
    const good = idempotencyRecordToJson(completed);
    for (const stored of [null, [], { ...good, state: 'exploded' }, { ...good, result: null }, { ...good, forgetAt: '1' }]) {
      expect(readIdempotencyRecordJson(stored)).toBeNull();
    }
    expect(readIdempotencyRecordJson({ ...good, state: 'in_flight', result: null })).toMatchObject({ state: 'in_flight' });
  });
});
