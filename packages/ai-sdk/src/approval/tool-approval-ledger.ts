/**
 * What the adapter recorded when the AI SDK asked a person to approve a tool call: the call it
 * asked about, bound to its arguments and to the caller. An approval response can only ever run
 * the call its ticket describes, and only once.
 */
export interface ToolApprovalTicket {
  /** The AI SDK's tool call id (the model's call id). */
  readonly toolCallId: string;
  /** The tool the model called. */
  readonly toolName: string;
  /** A SHA-256 digest of the call's arguments (canonical JSON, keys sorted). */
  readonly inputDigest: string;
  /** The principal the call runs as. */
  readonly principal: string | null;
  /** The channel the call runs on. */
  readonly channel: string;
  /** The agent run the call belongs to, or null. */
  readonly runId: string | null;
  /** When the approval request was issued. */
  readonly issuedAt: Date;
  /** After this instant an approval no longer runs the call. */
  readonly expiresAt: Date;
}

/** Why a ledger could not redeem a ticket: none was issued, it was used, or it expired. */
export type ToolApprovalLedgerRefusal = 'not_issued' | 'used' | 'expired';

/** The answer of {@link ToolApprovalLedger.redeem}: the ticket, redeemed now, or why not. */
export type ToolApprovalRedemption =
  | { readonly ok: true; readonly ticket: ToolApprovalTicket }
  | { readonly ok: false; readonly refusal: ToolApprovalLedgerRefusal };

/**
 * Where the adapter keeps the approval requests it issued, between the run that asked a person
 * and the run that carries the answer. The default ({@link InMemoryToolApprovalLedger}, one per
 * registry) serves one process; a host answering approvals in several processes passes a shared
 * implementation. Both operations must be atomic: a ticket is issued once and redeemed once.
 */
export interface ToolApprovalLedger {
  /**
   * Records a ticket. Answers false, and changes nothing, when a ticket for that tool call id
   * exists already (a ticket is never replaced).
   */
  issue(ticket: ToolApprovalTicket): boolean | Promise<boolean>;
  /**
   * Redeems the ticket of `toolCallId` at `now`: the first redemption of a live ticket gets it,
   * every later one `used`; an unknown id is `not_issued`, a ticket past its expiry `expired`.
   */
  redeem(toolCallId: string, now: Date): ToolApprovalRedemption | Promise<ToolApprovalRedemption>;
}
