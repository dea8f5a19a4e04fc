import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { InMemoryToolApprovalLedger } from './in-memory-tool-approval-ledger.js';
import type { ToolApprovalTicket } from './tool-approval-ledger.js';

const T0 = new Date('2026-12-01T10:00:00Z');

function ticket(toolCallId: string, ttlMs = 60_000, issuedAt = T0): ToolApprovalTicket {
  return {
    toolCallId,
    toolName: 'delete_note',
    inputDigest: 'a'.repeat(64),
    principal: 'agent:7',
    channel: 'web',
    runId: null,
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + ttlMs),
  };
}

describe('InMemoryToolApprovalLedger', () => {
  describe('issue', () => {
    it('never replaces a ticket already issued for the call id', () => {
      const ledger = new InMemoryToolApprovalLedger();
      expect(ledger.issue(ticket('c1', 3_600_000, new Date()))).toBe(true);
      expect(ledger.issue({ ...ticket('c1', 3_600_000, new Date()), toolName: 'other' })).toBe(false);
      const redeemed = ledger.redeem('c1', new Date());
      expect(redeemed.ok && redeemed.ticket.toolName).toBe('delete_note');
    });

    it('forgets the oldest ticket beyond maxTickets, which then redeems as not_issued', () => {
      const ledger = new InMemoryToolApprovalLedger({ maxTickets: 2 });
      const now = new Date();
      ledger.issue(ticket('c1', 60_000, now));
      ledger.issue(ticket('c2', 60_000, now));
      ledger.issue(ticket('c3', 60_000, now));
      expect(ledger.size).toBe(2);
      expect(ledger.redeem('c1', now)).toEqual({ ok: false, refusal: 'not_issued' });
      expect(ledger.redeem('c3', now).ok).toBe(true);
    });

    it('throws a MilpaError for a maxTickets that is not a positive integer', () => {
      expect(() => new InMemoryToolApprovalLedger({ maxTickets: 0 })).toThrow(MilpaError);
      expect(() => new InMemoryToolApprovalLedger({ maxTickets: 1.5 })).toThrow(/positive integer/);
    });
  });

  describe('redeem', () => {
    it('redeems a live ticket once, then answers used', () => {
      const ledger = new InMemoryToolApprovalLedger();
      ledger.issue(ticket('c1'));
      expect(ledger.redeem('c1', T0)).toMatchObject({ ok: true, ticket: { toolCallId: 'c1' } });
      expect(ledger.redeem('c1', T0)).toEqual({ ok: false, refusal: 'used' });
    });

    it('answers not_issued for an unknown call id and expired at or after the expiry', () => {
      const ledger = new InMemoryToolApprovalLedger();
      ledger.issue(ticket('c1', 1_000));
      expect(ledger.redeem('nope', T0)).toEqual({ ok: false, refusal: 'not_issued' });
      expect(ledger.redeem('c1', new Date(T0.getTime() + 1_000))).toEqual({ ok: false, refusal: 'expired' });
    });

    it('sweeps expired tickets when the next one is issued', () => {
      const ledger = new InMemoryToolApprovalLedger();
      ledger.issue(ticket('old', 1, new Date(Date.now() - 10_000)));
      ledger.issue(ticket('new', 60_000, new Date()));
      expect(ledger.size).toBe(1);
    });
  });
});
