import { MilpaError } from '@milpa/core';
import type { ToolApprovalLedger, ToolApprovalRedemption, ToolApprovalTicket } from './tool-approval-ledger.js';

/** Options of {@link InMemoryToolApprovalLedger}. */
export interface InMemoryToolApprovalLedgerOptions {
  /** At most this many tickets are kept (default 10,000); the oldest are forgotten first. */
  readonly maxTickets?: number;
}

interface Entry {
  readonly ticket: ToolApprovalTicket;
  redeemed: boolean;
}

const DEFAULT_MAX_TICKETS = 10_000;

/**
 * The approval requests of one process, kept in memory. Expired tickets are swept lazily, and at
 * most `maxTickets` are kept: a forgotten ticket redeems as `not_issued`, so forgetting never
 * lets a call run — it can only make an approval too late.
 *
 * @example
 * const ledger = new InMemoryToolApprovalLedger({ maxTickets: 1_000 });
 * const tools = await aiSdkTools(registry, { context, ledger });
 */
export class InMemoryToolApprovalLedger implements ToolApprovalLedger {
  readonly #entries = new Map<string, Entry>();
  readonly #maxTickets: number;

  constructor(options: InMemoryToolApprovalLedgerOptions = {}) {
    const max = options.maxTickets ?? DEFAULT_MAX_TICKETS;
    if (!Number.isInteger(max) || max < 1) {
      throw new MilpaError(`InMemoryToolApprovalLedger maxTickets must be a positive integer, got ${String(max)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#maxTickets = max;
  }

  /** Records `ticket` unless its tool call id has one already. */
  issue(ticket: ToolApprovalTicket): boolean {
    this.#sweep(new Date());
    if (this.#entries.has(ticket.toolCallId)) return false;
    while (this.#entries.size >= this.#maxTickets) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(ticket.toolCallId, { ticket: Object.freeze({ ...ticket }), redeemed: false });
    return true;
  }

  /** Redeems the ticket of `toolCallId` once. */
  redeem(toolCallId: string, now: Date): ToolApprovalRedemption {
    const entry = this.#entries.get(toolCallId);
    if (entry === undefined) return { ok: false, refusal: 'not_issued' };
    if (entry.redeemed) return { ok: false, refusal: 'used' };
    if (entry.ticket.expiresAt.getTime() <= now.getTime()) return { ok: false, refusal: 'expired' };
    entry.redeemed = true;
    return { ok: true, ticket: entry.ticket };
  }

  /** How many tickets are kept (redeemed ones included, until they expire). */
  get size(): number {
    return this.#entries.size;
  }

  #sweep(now: Date): void {
    for (const [id, entry] of this.#entries) {
      // Expired tickets (used or not) go; a later redemption reads `not_issued`, still a refusal.
      if (entry.ticket.expiresAt.getTime() <= now.getTime()) this.#entries.delete(id);
    }
  }
}
