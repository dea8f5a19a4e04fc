import {
  ExpiringMap,
  MilpaError,
  checkApprovalClaim,
  type ApprovalClaim,
  type ApprovalRedemption,
  type ApprovalSettlement,
  type ApprovalStore,
  type PendingApproval,
} from '@milpa/core';

/** Options of {@link InMemoryApprovalStore}. */
export interface InMemoryApprovalStoreOptions {
  /**
   * How long a held call is kept after it expires or is used, in milliseconds, so that a late
   * resume is told "expired" or "already used" rather than "unknown". Default one hour.
   */
  readonly retentionMs?: number;
  /** The clock, in epoch milliseconds (for tests); default `Date.now`. */
  readonly now?: () => number;
}

function isPendingApproval(value: unknown): value is PendingApproval {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<PendingApproval>;
  return (
    typeof record.approvalId === 'string' &&
    record.approvalId !== '' &&
    typeof record.toolName === 'string' &&
    typeof record.arguments === 'object' &&
    record.arguments !== null &&
    typeof record.argumentsDigest === 'string' &&
    (record.principal === null || typeof record.principal === 'string') &&
    typeof record.channel === 'string' &&
    (record.runId === null || typeof record.runId === 'string') &&
    typeof record.requestId === 'string' &&
    record.createdAt instanceof Date &&
    record.expiresAt instanceof Date &&
    Number.isFinite(record.expiresAt.getTime()) &&
    record.redeemedAt === null
  );
}

/**
 * The in-memory {@link ApprovalStore}: calls held in one process. Every operation is synchronous,
 * so a redemption is atomic: however many resumes race for one held call, exactly one redeems it.
 * A held call is kept until its expiry plus the retention (then swept lazily), a used one until
 * the retention has passed since its use.
 *
 * @example
 * const registry = new ToolRegistry({ approvalGate, approvalStore: new InMemoryApprovalStore() });
 */
export class InMemoryApprovalStore implements ApprovalStore {
  readonly #records: ExpiringMap<string, PendingApproval>;
  readonly #retentionMs: number;
  readonly #now: () => number;

  /** @throws MilpaError `INVALID_ARGUMENT` for a retention that is not a whole number of milliseconds ≥ 0. */
  constructor(options: InMemoryApprovalStoreOptions = {}) {
    const retentionMs = options.retentionMs ?? 3_600_000;
    if (typeof retentionMs !== 'number' || !Number.isInteger(retentionMs) || retentionMs < 0) {
      throw new MilpaError(`InMemoryApprovalStore retentionMs must be a whole number >= 0, got ${String(retentionMs)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#retentionMs = retentionMs;
    this.#now = options.now ?? (() => Date.now());
    this.#records = new ExpiringMap({ now: () => this.#now() });
  }

  /**
   * Stores a new held call (a frozen copy); false when the id is taken.
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed or already redeemed record.
   */
  open(approval: PendingApproval): boolean {
    if (!isPendingApproval(approval))
      throw new MilpaError('InMemoryApprovalStore.open() needs a well-formed, unredeemed PendingApproval.', { code: 'INVALID_ARGUMENT' });
    if (this.#records.has(approval.approvalId)) return false;
    this.#records.set(approval.approvalId, Object.freeze({ ...approval }), approval.expiresAt.getTime() + this.#retentionMs);
    return true;
  }

  /** The held call with that id, or null (also for a non-string id). Never throws. */
  get(approvalId: string): PendingApproval | null {
    if (typeof approvalId !== 'string') return null;
    return this.#records.get(approvalId) ?? null;
  }

  /** Checks the claim and marks the held call used in one synchronous step. Never throws. */
  redeem(approvalId: string, claim: ApprovalClaim): ApprovalRedemption {
    const approval = this.get(approvalId);
    if (approval === null) return { status: 'refused', refusal: 'not_found', approval: null };
    const refusal = checkApprovalClaim(approval, claim);
    if (refusal !== null) return { status: 'refused', refusal, approval };
    const redeemedAt = new Date(this.#now());
    const used = Object.freeze({ ...approval, redeemedAt });
    this.#records.set(approvalId, used, redeemedAt.getTime() + this.#retentionMs);
    return { status: 'redeemed', approval: used };
  }

  /**
   * Records how the redeemed held call ended, once, in one synchronous step: false when the id is
   * unknown, the call was never redeemed or it is settled already. Never throws.
   */
  settle(approvalId: string, settlement: ApprovalSettlement): boolean {
    const approval = this.get(approvalId);
    if (approval === null || approval.redeemedAt === null || (approval.settlement ?? null) !== null) return false;
    const settled = Object.freeze({ ...approval, settlement: Object.freeze({ ...settlement }) });
    this.#records.set(approvalId, settled, approval.redeemedAt.getTime() + this.#retentionMs);
    return true;
  }

  /** The number of held calls kept, used and expired ones included until swept. */
  size(): number {
    return this.#records.size;
  }
}
