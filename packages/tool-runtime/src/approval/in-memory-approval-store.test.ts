import { MilpaError, type ApprovalClaim, type PendingApproval } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { InMemoryApprovalStore } from './in-memory-approval-store.js';

function held(overrides: Partial<PendingApproval> = {}): PendingApproval {
  return {
    approvalId: 'a'.repeat(32),
    toolName: 'delete_note',
    arguments: { id: 'n1' },
    argumentsDigest: 'd'.repeat(64),
    principal: 'agent:7',
    channel: 'mcp',
    runId: 'run_1',
    requestId: 'req-1',
    createdAt: new Date(0),
    expiresAt: new Date(60_000),
    redeemedAt: null,
    ...overrides,
  };
}

const claim: ApprovalClaim = { toolName: 'delete_note', principal: 'agent:7', channel: 'mcp', runId: 'run_1', at: new Date(1_000) };

describe('InMemoryApprovalStore', () => {
  describe('open', () => {
    it('stores a frozen copy once and refuses a second record under the same id', () => {
      const store = new InMemoryApprovalStore({ now: () => 1_000 });
      const record = held();
      expect(store.open(record)).toBe(true);
      expect(store.open(held({ toolName: 'other' }))).toBe(false);
      const stored = store.get(record.approvalId);
      expect(stored).toEqual(record);
      expect(stored).not.toBe(record);
      expect(Object.isFrozen(stored)).toBe(true);
    });

    it.each([
      ['null', null],
      ['an empty id', held({ approvalId: '' })],
      ['an invalid expiry', held({ expiresAt: new Date(Number.NaN) })],
      ['a redeemed record', held({ redeemedAt: new Date(0) })],
      ['non-object arguments', held({ arguments: null as never })],
    ])('throws INVALID_ARGUMENT for %s and stores nothing', (_label, record) => {
      const store = new InMemoryApprovalStore();
      expect(() => store.open(record as PendingApproval)).toThrow(MilpaError);
      expect(store.size()).toBe(0);
    });
  });

  describe('redeem', () => {
    it('redeems once for the matching claim and refuses every later claim as used', () => {
      let now = 1_000;
      const store = new InMemoryApprovalStore({ now: () => now });
      store.open(held());
      const first = store.redeem('a'.repeat(32), claim);
      expect(first).toMatchObject({ status: 'redeemed', approval: { redeemedAt: new Date(1_000) } });
      now = 2_000;
      expect(store.redeem('a'.repeat(32), claim)).toMatchObject({ status: 'refused', refusal: 'used' });
      expect(store.get('a'.repeat(32))?.redeemedAt).toEqual(new Date(1_000));
    });

    it('keeps the record redeemable after a mismatched claim', () => {
      const store = new InMemoryApprovalStore({ now: () => 1_000 });
      store.open(held());
      expect(store.redeem('a'.repeat(32), { ...claim, principal: 'agent:8' })).toMatchObject({
        status: 'refused',
        refusal: 'principal_mismatch',
      });
      expect(store.redeem('a'.repeat(32), claim).status).toBe('redeemed');
    });

    it('refuses an unknown or non-string id as not_found', () => {
      const store = new InMemoryApprovalStore();
      expect(store.redeem('b'.repeat(32), claim)).toEqual({ status: 'refused', refusal: 'not_found', approval: null });
      expect(store.redeem(42 as never, claim)).toEqual({ status: 'refused', refusal: 'not_found', approval: null });
    });
  });

  describe('retention', () => {
    it('says expired within the retention and forgets the record after it', () => {
      let now = 0;
      const store = new InMemoryApprovalStore({ now: () => now, retentionMs: 10_000 });
      store.open(held());
      now = 65_000;
      expect(store.redeem('a'.repeat(32), { ...claim, at: new Date(now) })).toMatchObject({ status: 'refused', refusal: 'expired' });
      now = 70_001;
      expect(store.get('a'.repeat(32))).toBeNull();
    });

    it('throws INVALID_ARGUMENT for a negative or fractional retention', () => {
      expect(() => new InMemoryApprovalStore({ retentionMs: -1 })).toThrow(MilpaError);
      expect(() => new InMemoryApprovalStore({ retentionMs: 1.5 })).toThrow(MilpaError);
    });
  });
});
