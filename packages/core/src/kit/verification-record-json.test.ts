import { describe, expect, it } from 'vitest';
import type { VerificationRecord } from '../contracts/verification-store.js';
import { VerificationRequest } from '../verification/verification-request.js';
import { VerificationResult } from '../verification/verification-result.js';
import { readVerificationRecordJson, verificationRecordToJson } from './verification-record-json.js';

const AT = Date.UTC(2026, 0, 2, 3, 4, 5);

function resolvedRecord(): VerificationRecord {
  return {
    id: 'v-1',
    request: new VerificationRequest('gate:report.publish', 'dual', { amount: 120 }, 'user:requester', 'v-1'),
    createdAt: new Date(AT),
    expiresAt: new Date(AT + 60_000),
    requiredApprovals: 2,
    approvals: [
      { principal: 'user:a', at: new Date(AT + 1), reason: null },
      { principal: 'user:b', at: new Date(AT + 2), reason: 'fine', changes: { amount: 100 } },
    ],
    result: VerificationResult.pass('human', 'user:b', { note: 'ok' }),
    resolvedAt: new Date(AT + 2),
  };
}

describe('verificationRecordToJson', () => {
  it('writes times as epoch milliseconds and keeps only the changes a grant made', () => {
    const json = verificationRecordToJson(resolvedRecord());
    expect(json).toMatchObject({ createdAt: AT, expiresAt: AT + 60_000, resolvedAt: AT + 2, requiredApprovals: 2 });
    expect(json.approvals).toEqual([
      { principal: 'user:a', at: AT + 1, reason: null },
      { principal: 'user:b', at: AT + 2, reason: 'fine', changes: { amount: 100 } },
    ]);
    expect(json.result).toMatchObject({ status: 'passed', verifier: 'human', principal: 'user:b', metadata: { note: 'ok' } });
  });
});

describe('readVerificationRecordJson', () => {
  it('reads back, through JSON text, the record that was written', () => {
    const record = resolvedRecord();
    const read = readVerificationRecordJson('v-1', JSON.parse(JSON.stringify(verificationRecordToJson(record))));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value).toEqual(record);
    expect(read.value.request).toBeInstanceOf(VerificationRequest);
    expect(Object.isFrozen(read.value.approvals[1]?.changes)).toBe(true);
  });

  it('says what is wrong, without throwing, when the value is not such a record', () => {
    const good = verificationRecordToJson(resolvedRecord());
    for (const stored of [
      null,
      'text',
      { ...good, request: { ...good.request, policy: 'everyone' } },
      { ...good, createdAt: 'yesterday' },
      { ...good, approvals: [{ principal: 7 }] },
      { ...good, result: null },
    ]) {
      expect(readVerificationRecordJson('v-1', stored)).toEqual({ ok: false, error: 'does not hold a verification record' });
    }
  });
});
