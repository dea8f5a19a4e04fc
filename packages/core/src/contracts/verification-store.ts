import type { VerificationRequest } from '../verification/verification-request.js';
import type { VerificationResult } from '../verification/verification-result.js';

/** One grant recorded on a pending verification request. */
export interface VerificationApproval {
  /** Who granted. */
  readonly principal: string;
  /** When the grant was recorded. */
  readonly at: Date;
  /** The justification given with the grant, or null. */
  readonly reason: string | null;
  /**
   * The replacements of input fields this grant approved (the ones in effect when it was made),
   * or null/absent when it approved the request as opened.
   */
  readonly changes?: Readonly<Record<string, unknown>> | null;
}

/**
 * A verification request as a store keeps it: the request as opened, its approval rule, the grants
 * so far and, once decided, the final result. Records are immutable snapshots; a store replaces a
 * record on every transition.
 */
export interface VerificationRecord {
  /** The correlation id; always equal to `request.id`. */
  readonly id: string;
  /** The request as it was opened: the real subject, policy, payload and requester. */
  readonly request: VerificationRequest;
  /** When the request was opened. */
  readonly createdAt: Date;
  /** After this instant the request can no longer be resolved; null when it never expires. */
  readonly expiresAt: Date | null;
  /** Grants from distinct principals needed for a pass (0 for a request that passed automatically). */
  readonly requiredApprovals: number;
  /** The grants recorded so far, oldest first, each from a distinct principal. */
  readonly approvals: readonly VerificationApproval[];
  /** The final verdict, or null while the request is pending. */
  readonly result: VerificationResult | null;
  /** When the final verdict was recorded, or null while pending. */
  readonly resolvedAt: Date | null;
}

/**
 * A decision to apply to a stored request. `result` is the verdict to record if this decision
 * finalizes the request: for a reject always, for a grant only when it completes the required
 * approvals (otherwise the grant is recorded and the request stays pending).
 */
export interface VerificationDecision {
  /** `grant` adds an approval; `reject` finalizes the request as failed. */
  readonly kind: 'grant' | 'reject';
  /** Who decides. */
  readonly principal: string;
  /** The justification, or null. */
  readonly reason: string | null;
  /** When the decision is made; compared with `expiresAt`. */
  readonly at: Date;
  /** The subject the decider believes it is deciding on; null to skip the check. */
  readonly subject: string | null;
  /** The verdict to store when this decision finalizes the request. */
  readonly result: VerificationResult;
  /**
   * For a grant: replacements of input fields the approver makes. When they differ from the ones
   * the earlier grants approved, those grants no longer count (they approved something else).
   * Null or absent: the grant approves the request with the replacements already in effect.
   */
  readonly changes?: Readonly<Record<string, unknown>> | null;
}

/**
 * Why a store refused a decision; it changed nothing.
 * - `not_found`: no request with that id.
 * - `already_resolved`: the request has a final verdict.
 * - `expired`: `decision.at` is after `expiresAt`.
 * - `subject_mismatch`: `decision.subject` differs from the stored subject.
 * - `self_approval`: the requester tried to grant its own request.
 * - `duplicate_approval`: this principal already granted the request.
 */
export type VerificationRefusal =
  | 'not_found'
  | 'already_resolved'
  | 'expired'
  | 'subject_mismatch'
  | 'self_approval'
  | 'duplicate_approval';

/** What {@link VerificationStore.decide} did. */
export type VerificationDecisionOutcome =
  /** A grant was recorded and the request still needs more approvals. */
  | { readonly status: 'recorded'; readonly record: VerificationRecord }
  /** The decision finalized the request; `record.result` is `decision.result`. */
  | { readonly status: 'resolved'; readonly record: VerificationRecord }
  /** The decision was refused and nothing changed; `record` is the current one, or null when unknown. */
  | { readonly status: 'refused'; readonly refusal: VerificationRefusal; readonly record: VerificationRecord | null };

/**
 * Keeps verification requests between `verify()` and their resolution. Implementations may be async
 * (a store shared across processes), but each operation must be atomic per request: `open` inserts
 * only when the id is free, and `decide` checks the record and applies the decision in one step, so
 * concurrent grants of a `single` request resolve it exactly once and one principal's repeated
 * grants never satisfy a `dual` request.
 */
export interface VerificationStore {
  /** Stores a new record; false (and nothing changed) when a record with that id already exists. */
  open(record: VerificationRecord): boolean | Promise<boolean>;
  /** The record with that id, or null. */
  get(id: string): VerificationRecord | null | Promise<VerificationRecord | null>;
  /** Checks and applies `decision` to the request `id` atomically. */
  decide(id: string, decision: VerificationDecision): VerificationDecisionOutcome | Promise<VerificationDecisionOutcome>;
}
