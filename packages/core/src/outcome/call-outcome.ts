import type { InvocationOutcome } from '../invocation/invocation-outcome.js';
import type { ToolErrorCode } from '../result/tool-error-code.js';

/**
 * The kinds of {@link CallOutcome}, in one list: everything that names how a call ended (audit
 * outcomes, the history's observations, the adapters' answers to a model) is derived from it.
 */
export const CALL_OUTCOME_KINDS = Object.freeze([
  'executed',
  'failed',
  'refused',
  'confirmation_required',
  'approval_pending',
  'replayed',
  'planned',
] as const);

/** One of {@link CALL_OUTCOME_KINDS}. */
export type CallOutcomeKind = (typeof CALL_OUTCOME_KINDS)[number];

/** The history names of the calls that were refused before (or instead of) running. */
export type RefusalName = Exclude<
  InvocationOutcome,
  'executed' | 'failed' | 'timeout' | 'plan' | 'confirmation_requested' | 'approval_pending' | 'replayed'
>;

/** The handler (or a `tool.executing` listener answering for it) returned a result. */
export interface ExecutedOutcome {
  /** Discriminant. */
  readonly kind: 'executed';
  /** The run history's name for it: always `executed`. */
  readonly name: 'executed';
  /** A `tool.executing` listener answered instead of the handler (a cache). */
  readonly servedByListener: boolean;
}

/** The handler threw or rejected, or its hard timeout passed. */
export interface FailedOutcome {
  /** Discriminant. */
  readonly kind: 'failed';
  /** `failed` (a throw or rejection) or `timeout` (the tool's hard timeout). */
  readonly name: 'failed' | 'timeout';
  /** `INTERNAL_ERROR` or `TIMEOUT`. */
  readonly code: ToolErrorCode;
  /** What the caller is told, already redacted. */
  readonly reason: string;
}

/** A stage refused the call: nothing ran. */
export interface RefusedOutcome {
  /** Discriminant. */
  readonly kind: 'refused';
  /** Which check refused it, as the run history records it (`auth_denied`, `validation_failed`, …). */
  readonly name: RefusalName;
  /** The typed error code the caller gets (`FORBIDDEN`, `VALIDATION_ERROR`, …). */
  readonly code: ToolErrorCode;
  /** What the caller is told. */
  readonly reason: string;
}

/** The call waits for the caller to confirm it by calling again with the token. */
export interface ConfirmationRequiredOutcome {
  /** Discriminant. */
  readonly kind: 'confirmation_required';
  /** The run history's name for it. */
  readonly name: 'confirmation_requested';
  /** The one-use token to present (as the `confirmToken` call option) to run the call. */
  readonly token: string;
  /** A one-line description of what would run, with secrets redacted. */
  readonly summary: string;
  /** When the token expires (ISO 8601). */
  readonly expiresAt: string;
}

/** An approval gate held the call until someone else decides. */
export interface ApprovalPendingOutcome {
  /** Discriminant. */
  readonly kind: 'approval_pending';
  /** The run history's name for it. */
  readonly name: 'approval_pending';
  /** The id to resume the call with once it is approved. */
  readonly approvalId: string;
  /** When the held call expires (ISO 8601). */
  readonly expiresAt: string;
}

/** A call with an idempotency key got the first call's result back; nothing ran. */
export interface ReplayedOutcome {
  /** Discriminant. */
  readonly kind: 'replayed';
  /** The run history's name for it. */
  readonly name: 'replayed';
}

/** A plan-mode call ran every gate and stopped before executing. */
export interface PlannedOutcome {
  /** Discriminant. */
  readonly kind: 'planned';
  /** The run history's name for it. */
  readonly name: 'plan';
}

/**
 * How a call ended, set once where the pipeline ends it and carried by the call's `ToolResult`
 * (`result.outcome`). Narrow it with a `switch` on `kind`; `name` is the finer name the audit record
 * and the run history use.
 *
 * @example
 * const { outcome } = await registry.call('delete_note', { id: 7 }, context);
 * switch (outcome?.kind) {
 *   case 'approval_pending': console.log('waiting for', outcome.approvalId); break;
 *   case 'refused': console.log(outcome.code, outcome.reason); break;
 * }
 */
export type CallOutcome =
  | ExecutedOutcome
  | FailedOutcome
  | RefusedOutcome
  | ConfirmationRequiredOutcome
  | ApprovalPendingOutcome
  | ReplayedOutcome
  | PlannedOutcome;

const KIND_OF: Readonly<Record<InvocationOutcome, CallOutcomeKind>> = Object.freeze({
  executed: 'executed',
  failed: 'failed',
  timeout: 'failed',
  plan: 'planned',
  confirmation_requested: 'confirmation_required',
  approval_pending: 'approval_pending',
  replayed: 'replayed',
  aborted: 'refused',
  not_found: 'refused',
  validation_failed: 'refused',
  auth_denied: 'refused',
  invocation_denied: 'refused',
  rate_limited: 'refused',
  refused: 'refused',
  invalid_token: 'refused',
  vetoed: 'refused',
  internal_error: 'refused',
  approval_denied: 'refused',
  approval_invalid: 'refused',
});

/**
 * The {@link CallOutcomeKind} a run-history outcome name belongs to.
 *
 * @example
 * outcomeKindOf('auth_denied'); // 'refused'
 */
export function outcomeKindOf(name: InvocationOutcome): CallOutcomeKind {
  return KIND_OF[name];
}

/** True when the call stopped to wait for a person: a confirmation or an approval. */
export function isWaitingForPerson(
  outcome: CallOutcome | null | undefined,
): outcome is ConfirmationRequiredOutcome | ApprovalPendingOutcome {
  return outcome?.kind === 'confirmation_required' || outcome?.kind === 'approval_pending';
}
