import type { ToolArgs } from '../tools/tool-definition.js';

/**
 * A call held by an approval gate, bound to everything a resume must match: the tool, the digest of
 * its validated arguments, and the principal, channel and run that asked. Records are immutable
 * snapshots; a store replaces a record when it is redeemed.
 */
export interface PendingApproval {
  /** The unguessable id the requester resumes with. */
  readonly approvalId: string;
  /** The tool called. */
  readonly toolName: string;
  /** The validated arguments as held (deeply frozen). */
  readonly arguments: ToolArgs;
  /** A digest of those arguments; a resume that presents other arguments is refused. */
  readonly argumentsDigest: string;
  /** The principal that asked, or null. */
  readonly principal: string | null;
  /** The channel it asked on. */
  readonly channel: string;
  /** The run it belongs to, or null. */
  readonly runId: string | null;
  /** The request id of the call that was held. */
  readonly requestId: string;
  /** When the call was held. */
  readonly createdAt: Date;
  /** After this instant the call can no longer be resumed. */
  readonly expiresAt: Date;
  /** When it was redeemed (it executes at most once), or null. */
  readonly redeemedAt: Date | null;
  /**
   * How the redeemed call ended, once the registry recorded it with {@link ApprovalStore.settle};
   * null (or absent, from a store without `settle`) while unknown.
   */
  readonly settlement?: ApprovalSettlement | null;
}

/**
 * How a redeemed held call ended: it ran and `succeeded`, or it `failed` (refused again right
 * before running, or the tool failed) with the result's error code.
 */
export interface ApprovalSettlement {
  /** `succeeded` when the tool ran and returned a result, `failed` otherwise. */
  readonly outcome: 'succeeded' | 'failed';
  /** The error code of a failed call (e.g. `EXECUTION_ERROR`, `FORBIDDEN`), null when it succeeded. */
  readonly code: string | null;
  /** When the resumed call ended. */
  readonly at: Date;
}

/** Who claims a held call, and when; a redemption succeeds only when every field matches. */
export interface ApprovalClaim {
  /** The tool the resume calls. */
  readonly toolName: string;
  /** The resuming principal, or null. */
  readonly principal: string | null;
  /** The resuming channel. */
  readonly channel: string;
  /** The resuming run, or null. */
  readonly runId: string | null;
  /** The moment of the claim; compared with `expiresAt`. */
  readonly at: Date;
}

/**
 * Why a store refused to redeem a held call; it changed nothing.
 * - `not_found`: no held call with that id (never issued, forged or swept).
 * - `expired`: the claim came after `expiresAt`.
 * - `used`: it was redeemed already.
 * - `tool_mismatch`, `principal_mismatch`, `channel_mismatch`, `run_mismatch`: the claim is not the
 *   requester's (the held call stays redeemable by its requester).
 */
export type ApprovalRefusal =
  | 'not_found'
  | 'expired'
  | 'used'
  | 'tool_mismatch'
  | 'principal_mismatch'
  | 'channel_mismatch'
  | 'run_mismatch';

/** What {@link ApprovalStore.redeem} did. */
export type ApprovalRedemption =
  /** The claim matched and the held call is now used: the caller executes it, once. */
  | { readonly status: 'redeemed'; readonly approval: PendingApproval }
  /** Refused; nothing changed. `approval` is the current record, or null when unknown. */
  | { readonly status: 'refused'; readonly refusal: ApprovalRefusal; readonly approval: PendingApproval | null };

/**
 * Keeps calls held by an approval gate until their requester resumes them. Implementations may be
 * async (a store shared across processes), but `open` inserts only when the id is free, and `redeem`
 * checks the claim and marks the record used in one atomic step, so however many resumes race, a
 * held call executes at most once.
 */
export interface ApprovalStore {
  /** Stores a new held call; false (and nothing changed) when the id is taken. */
  open(approval: PendingApproval): boolean | Promise<boolean>;
  /** The held call with that id (used or not), or null. */
  get(approvalId: string): PendingApproval | null | Promise<PendingApproval | null>;
  /** Checks `claim` against the held call and marks it used, atomically; see {@link ApprovalRedemption}. */
  redeem(approvalId: string, claim: ApprovalClaim): ApprovalRedemption | Promise<ApprovalRedemption>;
  /**
   * Records how a redeemed held call ended, so anyone reading the store (an approvals page in
   * another process) sees whether the approved call ran. Once only: true when recorded, false (and
   * nothing changed) when the id is unknown, the call was never redeemed, or it was settled already.
   * Optional: the registry skips it for a store without it, and the call's result never depends on it.
   */
  settle?(approvalId: string, settlement: ApprovalSettlement): boolean | Promise<boolean>;
}
