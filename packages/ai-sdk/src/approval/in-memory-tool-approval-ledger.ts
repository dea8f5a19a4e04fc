import {
  ExpiringMap,
  MilpaError,
  checkApprovalClaim,
  type ApprovalClaim,
  type ApprovalRedemption,
  type ApprovalStore,
  type PendingApproval,
} from '@milpa/core';

/** Options of {@link InMemoryToolApprovalLedger}. */
export interface InMemoryToolApprovalLedgerOptions {
  /** At most this many bindings are kept (default 10,000); the oldest are forgotten first. */
  readonly maxTickets?: number;
}

const DEFAULT_MAX_TICKETS = 10_000;
/** A binding is kept this long past its expiry (or its use), so a late approval reads `expired` or `used`. */
const RETENTION_MS = 3_600_000;

/**
 * An in-memory approval store for the adapter's approval bindings, used when neither
 * `approvalStore` is given nor the registry has one. Bindings are kept until they expire (swept
 * lazily, an hour after they expire or are used), at most `maxTickets` of them: a forgotten binding redeems as `not_issued`, so forgetting
 * never lets a call run — it can only make an approval too late.
 *
 * @deprecated Pass an `ApprovalStore` as `approvalStore` (or use a registry with one, such as
 *   `@milpa/tool-runtime`'s `ToolRegistry`); this class remains as that store's in-memory default.
 * @example
 * const tools = await aiSdkTools(registry, { context, approvalStore: new InMemoryToolApprovalLedger({ maxTickets: 1_000 }) });
 */
export class InMemoryToolApprovalLedger implements ApprovalStore {
  readonly #records = new ExpiringMap<string, PendingApproval>();
  readonly #maxTickets: number;

  /** @throws MilpaError `INVALID_ARGUMENT` for a `maxTickets` that is not a positive integer. */
  constructor(options: InMemoryToolApprovalLedgerOptions = {}) {
    const max = options.maxTickets ?? DEFAULT_MAX_TICKETS;
    if (!Number.isInteger(max) || max < 1) {
      throw new MilpaError(`InMemoryToolApprovalLedger maxTickets must be a positive integer, got ${String(max)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#maxTickets = max;
  }

  /** Keeps `approval` unless its id is taken; forgets the oldest bindings beyond `maxTickets`. */
  open(approval: PendingApproval): boolean {
    this.#records.sweep();
    if (this.#records.has(approval.approvalId)) return false;
    while (this.#records.size >= this.#maxTickets) {
      const oldest = this.#records.entries().next();
      if (oldest.done === true) break;
      this.#records.delete(oldest.value[0]);
    }
    this.#records.set(approval.approvalId, Object.freeze({ ...approval }), approval.expiresAt.getTime() + RETENTION_MS);
    return true;
  }

  /** The binding with that id, or null. */
  get(approvalId: string): PendingApproval | null {
    return this.#records.get(approvalId) ?? null;
  }

  /** Checks the claim and marks the binding used in one synchronous step. */
  redeem(approvalId: string, claim: ApprovalClaim): ApprovalRedemption {
    const approval = this.get(approvalId);
    if (approval === null) return { status: 'refused', refusal: 'not_found', approval: null };
    const refusal = checkApprovalClaim(approval, claim);
    if (refusal !== null) return { status: 'refused', refusal, approval };
    const used = Object.freeze({ ...approval, redeemedAt: claim.at });
    this.#records.set(approvalId, used, claim.at.getTime() + RETENTION_MS);
    return { status: 'redeemed', approval: used };
  }

  /** How many bindings are kept (used ones included, until they expire). */
  get size(): number {
    return this.#records.size;
  }
}
