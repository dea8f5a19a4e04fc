import { describe, expect, it } from 'vitest';
import type { VerificationDecision, VerificationRecord } from '../contracts/verification-store.js';
import { VerificationRequest } from './verification-request.js';
import { VerificationResult } from './verification-result.js';
import { applyVerificationDecision } from './apply-verification-decision.js';

const T0 = new Date('2026-08-15T14:00:00Z');

function pending(changes: Partial<VerificationRecord> = {}): VerificationRecord {
  return Object.freeze({
    id: 'req-1',
    request: new VerificationRequest('gate:x', 'single', {}, 'agent:worker', 'req-1'),
    createdAt: T0,
    expiresAt: null,
    requiredApprovals: 1,
    approvals: Object.freeze([]),
    result: null,
    resolvedAt: null,
    ...changes,
  });
}

function grant(principal: string, changes: Partial<VerificationDecision> = {}): VerificationDecision {
  return {
    kind: 'grant',
    principal,
    reason: null,
    at: new Date(T0.getTime() + 1000),
    subject: null,
    result: VerificationResult.pass('human_verifier', principal),
    ...changes,
  };
}

function reject(principal: string, changes: Partial<VerificationDecision> = {}): VerificationDecision {
  return {
    ...grant(principal),
    kind: 'reject',
    reason: 'no',
    result: VerificationResult.fail('no', [], 'human_verifier', {}, principal),
    ...changes,
  };
}

describe('applyVerificationDecision', () => {
  describe('refusals', () => {
    it('refuses with not_found when there is no record', () => {
      expect(applyVerificationDecision(null, grant('a'))).toEqual({ status: 'refused', refusal: 'not_found', record: null });
    });

    it('refuses with already_resolved, even past the expiry, when the record has a verdict', () => {
      const record = pending({ result: VerificationResult.pass('human_verifier', 'b'), resolvedAt: T0, expiresAt: T0 });
      expect(applyVerificationDecision(record, grant('a'))).toEqual({ status: 'refused', refusal: 'already_resolved', record });
    });

    it('refuses with expired when the decision comes after expiresAt', () => {
      const record = pending({ expiresAt: new Date(T0.getTime() + 999) });
      expect(applyVerificationDecision(record, reject('a'))).toMatchObject({ status: 'refused', refusal: 'expired' });
    });

    it('accepts a decision made exactly at expiresAt', () => {
      const record = pending({ expiresAt: new Date(T0.getTime() + 1000) });
      expect(applyVerificationDecision(record, grant('a')).status).toBe('resolved');
    });

    it('refuses with subject_mismatch when the decision names another subject', () => {
      expect(applyVerificationDecision(pending(), grant('a', { subject: 'gate:y' }))).toMatchObject({ refusal: 'subject_mismatch' });
      expect(applyVerificationDecision(pending(), grant('a', { subject: 'gate:x' })).status).toBe('resolved');
    });

    it('refuses with self_approval when the requester grants', () => {
      expect(applyVerificationDecision(pending(), grant('agent:worker'))).toMatchObject({ refusal: 'self_approval' });
    });

    it('lets anyone grant when the request has no requester', () => {
      const record = pending({ request: new VerificationRequest('gate:x', 'single', {}, null, 'req-1') });
      expect(applyVerificationDecision(record, grant('agent:worker')).status).toBe('resolved');
    });

    it('refuses with duplicate_approval when the principal already granted', () => {
      const record = pending({ requiredApprovals: 2, approvals: [{ principal: 'a', at: T0, reason: null }] });
      expect(applyVerificationDecision(record, grant('a'))).toMatchObject({ status: 'refused', refusal: 'duplicate_approval', record });
    });
  });

  describe('transitions', () => {
    it('records a grant and stays pending while approvals are missing', () => {
      const outcome = applyVerificationDecision(pending({ requiredApprovals: 2 }), grant('a', { reason: 'ok' }));
      expect(outcome.status).toBe('recorded');
      expect(outcome.record).toMatchObject({ result: null, resolvedAt: null, approvals: [{ principal: 'a', reason: 'ok' }] });
    });

    it('resolves with the decision result when the last approval arrives', () => {
      const decision = grant('b');
      const outcome = applyVerificationDecision(
        pending({ requiredApprovals: 2, approvals: [{ principal: 'a', at: T0, reason: null }] }),
        decision,
      );
      expect(outcome.status).toBe('resolved');
      expect(outcome.record).toMatchObject({ result: decision.result, resolvedAt: decision.at });
      expect(outcome.record?.approvals.map((approval) => approval.principal)).toEqual(['a', 'b']);
    });

    it('resolves on a reject by the requester, keeping the earlier grants', () => {
      const record = pending({ requiredApprovals: 2, approvals: [{ principal: 'a', at: T0, reason: null }] });
      const decision = reject('agent:worker');
      const outcome = applyVerificationDecision(record, decision);
      expect(outcome).toMatchObject({ status: 'resolved', record: { result: decision.result, approvals: record.approvals } });
    });

    it('never mutates the record it is given and returns frozen records', () => {
      const record = pending({ requiredApprovals: 2 });
      const outcome = applyVerificationDecision(record, grant('a'));
      expect(record.approvals).toEqual([]);
      expect(Object.isFrozen(outcome.record)).toBe(true);
      expect(Object.isFrozen(outcome.record?.approvals)).toBe(true);
    });

    it('records the approval with its principal, time and reason', () => {
      const decision = grant('a', { reason: 'looks right' });
      const outcome = applyVerificationDecision(pending({ requiredApprovals: 3 }), decision);
      expect(outcome.record?.approvals).toEqual([{ principal: 'a', at: decision.at, reason: 'looks right' }]);
      expect(outcome.record).toMatchObject({ requiredApprovals: 3, result: null, resolvedAt: null });
    });

    it('resolves a reject with the reject result and time and no new approval', () => {
      const decision = reject('c');
      const outcome = applyVerificationDecision(pending({ requiredApprovals: 2 }), decision);
      expect(outcome).toEqual({
        status: 'resolved',
        record: { ...pending({ requiredApprovals: 2 }), result: decision.result, resolvedAt: decision.at },
      });
    });
  });

  describe('grants that change the arguments', () => {
    const dual = (): VerificationRecord =>
      pending({ request: new VerificationRequest('gate:x', 'dual', {}, 'agent:worker', 'req-1'), requiredApprovals: 2 });

    it('stores a deep, frozen copy of the changes with the grant', () => {
      const changes = { amount: 90, note: { text: 'cut' } };
      const outcome = applyVerificationDecision(dual(), grant('a', { changes }));
      changes.note.text = 'changed later';
      const stored = outcome.record?.approvals[0]?.changes;
      expect(stored).toEqual({ amount: 90, note: { text: 'cut' } });
      expect(Object.isFrozen(stored)).toBe(true);
      expect(Object.isFrozen((stored as { note: object }).note)).toBe(true);
    });

    it('lets a later grant without changes approve the changes in effect', () => {
      const first = applyVerificationDecision(dual(), grant('a', { changes: { amount: 90 } }));
      const second = applyVerificationDecision(first.record, grant('b'));
      expect(second.status).toBe('resolved');
      expect(second.record?.approvals.map((approval) => approval.changes)).toEqual([{ amount: 90 }, { amount: 90 }]);
    });

    it('starts the approvals over when the changes differ, so the earlier approver may grant again', () => {
      const first = applyVerificationDecision(dual(), grant('a'));
      const amended = applyVerificationDecision(first.record, grant('b', { changes: { amount: 50 } }));
      expect(amended).toMatchObject({ status: 'recorded' });
      expect(amended.record?.approvals.map((approval) => approval.principal)).toEqual(['b']);
      expect(applyVerificationDecision(amended.record, grant('a')).status).toBe('resolved');
    });

    it('treats the same changes in another key order as the same changes', () => {
      const first = applyVerificationDecision(dual(), grant('a', { changes: { amount: 50, note: 'x' } }));
      expect(applyVerificationDecision(first.record, grant('a', { changes: { note: 'x', amount: 50 } }))).toMatchObject({
        status: 'refused',
        refusal: 'duplicate_approval',
      });
    });

    it('keeps grants without changes free of a changes field', () => {
      expect(applyVerificationDecision(pending(), grant('a')).record?.approvals[0]).toEqual({
        principal: 'a',
        at: new Date(T0.getTime() + 1000),
        reason: null,
      });
    });

    it('still refuses the requester, with or without changes', () => {
      expect(applyVerificationDecision(pending(), grant('agent:worker', { changes: { amount: 1 } }))).toMatchObject({
        status: 'refused',
        refusal: 'self_approval',
      });
    });
  });

  describe('principals and subjects', () => {
    it('refuses a padded spelling of the requester as self_approval', () => {
      expect(applyVerificationDecision(pending(), grant(' agent:worker\t'))).toMatchObject({ status: 'refused', refusal: 'self_approval' });
      const padded = pending({ request: new VerificationRequest('gate:x', 'single', {}, '  agent:worker ', 'req-1') });
      expect(applyVerificationDecision(padded, grant('agent:worker'))).toMatchObject({ refusal: 'self_approval' });
    });

    it('refuses a padded spelling of an earlier approver as duplicate_approval', () => {
      const record = pending({ requiredApprovals: 3, approvals: [{ principal: ' a ', at: T0, reason: null }] });
      expect(applyVerificationDecision(record, grant('a'))).toMatchObject({ refusal: 'duplicate_approval' });
      const other = pending({ requiredApprovals: 3, approvals: [{ principal: 'a', at: T0, reason: null }] });
      expect(applyVerificationDecision(other, grant('a '))).toMatchObject({ refusal: 'duplicate_approval' });
      expect(applyVerificationDecision(other, grant('b')).status).toBe('recorded');
    });

    it('accepts a decision without a subject whatever the stored subject', () => {
      expect(applyVerificationDecision(pending(), grant('a', { subject: null })).status).toBe('resolved');
    });

    it('lets the requester reject its own request', () => {
      expect(applyVerificationDecision(pending(), reject('agent:worker')).status).toBe('resolved');
    });

    it('refuses an expired decision before checking the subject', () => {
      const record = pending({ expiresAt: T0 });
      expect(applyVerificationDecision(record, grant('a', { subject: 'gate:y' }))).toMatchObject({ refusal: 'expired' });
    });

    it('refuses an already resolved record before checking the expiry', () => {
      const record = pending({ result: VerificationResult.pass('human_verifier', 'b'), resolvedAt: T0, expiresAt: T0 });
      expect(applyVerificationDecision(record, grant('agent:worker', { subject: 'gate:y' }))).toMatchObject({
        refusal: 'already_resolved',
      });
    });
  });
});
