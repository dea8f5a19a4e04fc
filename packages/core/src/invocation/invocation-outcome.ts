// The one list of outcome names: the type, `InvocationOutcome.values` and the check come from it,
// and `CallOutcome`'s names are typed against it.
const OUTCOMES = Object.freeze([
  'executed',
  'failed',
  'timeout',
  'aborted',
  'not_found',
  'validation_failed',
  'auth_denied',
  'invocation_denied',
  'rate_limited',
  'refused',
  'plan',
  'confirmation_requested',
  'invalid_token',
  'vetoed',
  'internal_error',
  'approval_denied',
  'approval_pending',
  'approval_invalid',
  'replayed',
] as const);

/**
 * How a call ended, as recorded in its run's invocation history: one value per terminal path of
 * the pipeline, refusals and answers alike.
 */
export type InvocationOutcome = (typeof OUTCOMES)[number];

/**
 * The closed set of {@link InvocationOutcome} values.
 *
 * @example
 * InvocationOutcome.isInvocationOutcome('executed'); // true
 */
export const InvocationOutcome = Object.freeze({
  /** The handler (or a `tool.executing` listener answering for it) returned a result. */
  EXECUTED: 'executed',
  /** The handler threw or rejected. */
  FAILED: 'failed',
  /** The tool's hard timeout passed. */
  TIMEOUT: 'timeout',
  /** The caller aborted before the handler started. */
  ABORTED: 'aborted',
  /** No tool has the requested name. */
  NOT_FOUND: 'not_found',
  /** The arguments failed validation. */
  VALIDATION_FAILED: 'validation_failed',
  /** Authorization refused the caller (scopes, channel policy, host rules). */
  AUTH_DENIED: 'auth_denied',
  /** An invocation rule or target resolver refused this call. */
  INVOCATION_DENIED: 'invocation_denied',
  /** The caller's rate budget was spent. */
  RATE_LIMITED: 'rate_limited',
  /** A host guard stage refused the call. */
  REFUSED: 'refused',
  /** A plan-mode call stopped before execution. */
  PLAN: 'plan',
  /** A confirmation token was issued instead of executing. */
  CONFIRMATION_REQUESTED: 'confirmation_requested',
  /** A confirmation token was unknown, expired or for another caller. */
  INVALID_TOKEN: 'invalid_token',
  /** A `tool.executing` listener stopped the call. */
  VETOED: 'vetoed',
  /** A collaborator failed and the call was refused (fail-closed). */
  INTERNAL_ERROR: 'internal_error',
  /** An approval gate refused the call, or an approver rejected it. */
  APPROVAL_DENIED: 'approval_denied',
  /** An approval gate held the call until someone else decides (a suspension). */
  APPROVAL_PENDING: 'approval_pending',
  /** A resume presented an approval id that cannot resume this call. */
  APPROVAL_INVALID: 'approval_invalid',
  /** A call with an idempotency key got the result of the first call with that key; nothing ran. */
  REPLAYED: 'replayed',
  /** Every outcome. */
  values: OUTCOMES,
  /** True when `value` is one of the outcomes. */
  isInvocationOutcome(value: unknown): value is InvocationOutcome {
    return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value);
  },
} as const);
