// The order of the built-in stages (pipeline/stage-list.ts), which plans and calls share. Clamp
// comes before validate: clamps coerce first, so schema bounds never fight them. The one list of
// step kinds: the type, the runtime check and the stage list's order all come from it.
const KINDS = Object.freeze([
  'resolve',
  'tidy',
  'clamp',
  'validate',
  'authorize',
  'idempotency',
  'rules',
  'rate_limit',
  'plan_mode',
  'confirm',
  'approve',
  'rules_replay',
  'emit_executing',
  'execute',
  'contain_exception',
  'cap_result',
  'idempotency_record',
  'history',
  'events',
  'audit',
] as const);

/** One built-in stage of `ToolRegistry.call()`, as the Inspection plan names it. */
export type InvocationStepKind = (typeof KINDS)[number];

/**
 * The steps of the pipeline, un-collapsed, in the order a call runs them: argument tidying (opt-in), clamp and validate split,
 * the invocation rules after authorization (and again after confirm for a confirmation replay),
 * plan mode and confirm split, the `tool.executing` hook, the exception boundary, the result cap, the run's
 * history, the events and the audit outcome.
 *
 * @example
 * InvocationStepKind.inspectionOrder(); // ['resolve', 'validate', …, 'audit']
 * InvocationStepKind.isInvocationStepKind('rate_limit'); // true
 */
export const InvocationStepKind = Object.freeze({
  RESOLVE: 'resolve',
  TIDY: 'tidy',
  CLAMP: 'clamp',
  VALIDATE: 'validate',
  AUTHORIZE: 'authorize',
  /** A call with an idempotency key: run once per key, replay the first result to retries. */
  IDEMPOTENCY: 'idempotency',
  RULES: 'rules',
  RATE_LIMIT: 'rate_limit',
  PLAN_MODE: 'plan_mode',
  CONFIRM: 'confirm',
  /** The approval gate: allow, deny, or hold the call for someone else to approve. */
  APPROVE: 'approve',
  RULES_REPLAY: 'rules_replay',
  EMIT_EXECUTING: 'emit_executing',
  EXECUTE: 'execute',
  CONTAIN_EXCEPTION: 'contain_exception',
  CAP_RESULT: 'cap_result',
  /** Keeps a keyed call's result for retries, or frees its key when nothing ran. */
  IDEMPOTENCY_RECORD: 'idempotency_record',
  HISTORY: 'history',
  EVENTS: 'events',
  AUDIT: 'audit',
  /** Every kind, in pipeline order. */
  values: KINDS,
  /** True when `value` names a step kind. */
  isInvocationStepKind(value: unknown): value is InvocationStepKind {
    return typeof value === 'string' && (KINDS as readonly string[]).includes(value);
  },
  /** The built-in kinds in the order `call()` runs them (the same list as `values`). */
  inspectionOrder(): readonly InvocationStepKind[] {
    return KINDS;
  },
} as const);

/** The step kind of a host's own stage in a plan: `host:` and the stage's name. */
export type HostStepKind = `host:${string}`;

const HOST_STEP_KIND = /^host:[a-z][a-z0-9_]{0,63}$/;

/** True when `value` names a host stage's step (`host:` and a valid stage name). */
export function isHostStepKind(value: unknown): value is HostStepKind {
  return typeof value === 'string' && HOST_STEP_KIND.test(value);
}
