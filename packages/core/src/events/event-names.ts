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

/** Names of the events a verifier dispatches; payload `{ event }`. */
export const VerificationEvents = Object.freeze({
  /** A verification request was opened. */
  REQUESTED: 'verification.requested',
  /** A request was granted. */
  GRANTED: 'verification.granted',
  /** A request was rejected. */
  REJECTED: 'verification.rejected',
} as const);

/** One of the {@link VerificationEvents} names. */
export type VerificationEventName = (typeof VerificationEvents)[keyof typeof VerificationEvents];
