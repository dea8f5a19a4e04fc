/** Names of the events dispatched around every `ToolRegistry.call()`. */
export const ToolEvents = Object.freeze({
  /** Before execution, after every gate passed; payload `{ event, slot }`. */
  EXECUTING: 'tool.executing',
  /** After a live or cache-served execution; payload `{ event }`. */
  EXECUTED: 'tool.executed',
  /** After the handler threw; payload `{ event }`. */
  FAILED: 'tool.failed',
} as const);

/** One of the {@link ToolEvents} names. */
export type ToolEventName = (typeof ToolEvents)[keyof typeof ToolEvents];

/**
 * Names of the governance events: a call refused before it could run. Payload `{ event }`. Kept
 * apart on purpose: `tool.denied` says this caller may not use the tool at all (authorization, rate
 * limit); `tool.invocation_denied` says this particular call may not proceed (an invocation rule).
 */
export const GovernanceEvents = Object.freeze({
  /** Authorization or the rate limiter refused the call; payload `{ event: ToolDeniedEvent }`. */
  DENIED: 'tool.denied',
  /** An invocation rule or target resolver refused the call; payload `{ event: ToolInvocationDeniedEvent }`. */
  INVOCATION_DENIED: 'tool.invocation_denied',
} as const);

/** One of the {@link GovernanceEvents} names. */
export type GovernanceEventName = (typeof GovernanceEvents)[keyof typeof GovernanceEvents];

/** Names of the events a verifier dispatches; payload `{ event }`. */
export const VerificationEvents = Object.freeze({
  /** A verification request was opened. */
  REQUESTED: 'verification.requested',
  /** A grant was recorded that does not complete the policy yet (more approvals are needed). */
  APPROVAL_RECORDED: 'verification.approval_recorded',
  /** A request was granted. */
  GRANTED: 'verification.granted',
  /** A request was rejected. */
  REJECTED: 'verification.rejected',
} as const);

/** One of the {@link VerificationEvents} names. */
export type VerificationEventName = (typeof VerificationEvents)[keyof typeof VerificationEvents];
