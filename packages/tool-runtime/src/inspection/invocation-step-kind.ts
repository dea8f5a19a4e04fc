/** One stage of `ToolRegistry.call()`, as the Inspection plan names it. */
export type InvocationStepKind =
  | 'resolve'
  | 'clamp'
  | 'validate'
  | 'authorize'
  | 'rate_limit'
  | 'plan_mode'
  | 'confirm'
  | 'emit_executing'
  | 'execute'
  | 'contain_exception'
  | 'audit';

// The order is the pipeline's order; the drift test of the registry pins it against `call()`.
// Clamp comes before validate (DESIGN 6: clamps coerce first, so schema bounds never fight them);
// the PHP seed listed validate first because it clamped after validating.
const KINDS: readonly InvocationStepKind[] = Object.freeze([
  'resolve',
  'clamp',
  'validate',
  'authorize',
  'rate_limit',
  'plan_mode',
  'confirm',
  'emit_executing',
  'execute',
  'contain_exception',
  'audit',
] as const);

/**
 * The eleven stages of the pipeline, un-collapsed: clamp and validate split, plan mode and confirm
 * split, plus the `tool.executing` hook, the exception boundary and the audit outcome.
 *
 * @example
 * InvocationStepKind.inspectionOrder(); // ['resolve', 'validate', …, 'audit']
 * InvocationStepKind.isInvocationStepKind('rate_limit'); // true
 */
export const InvocationStepKind = Object.freeze({
  RESOLVE: 'resolve',
  CLAMP: 'clamp',
  VALIDATE: 'validate',
  AUTHORIZE: 'authorize',
  RATE_LIMIT: 'rate_limit',
  PLAN_MODE: 'plan_mode',
  CONFIRM: 'confirm',
  EMIT_EXECUTING: 'emit_executing',
  EXECUTE: 'execute',
  CONTAIN_EXCEPTION: 'contain_exception',
  AUDIT: 'audit',
  /** Every kind, in pipeline order. */
  values: KINDS,
  /** True when `value` names a step kind. */
  isInvocationStepKind(value: unknown): value is InvocationStepKind {
    return typeof value === 'string' && (KINDS as readonly string[]).includes(value);
  },
  /** The eleven kinds in the order `call()` runs them (the same list as `values`). */
  inspectionOrder(): readonly InvocationStepKind[] {
    return KINDS;
  },
} as const);
