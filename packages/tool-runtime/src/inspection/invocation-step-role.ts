/** What a step does in the pipeline. */
export type InvocationStepRole = 'guard' | 'transform' | 'branch' | 'hook' | 'execution' | 'boundary' | 'outcome';

const ROLES: readonly InvocationStepRole[] = Object.freeze([
  'guard',
  'transform',
  'branch',
  'hook',
  'execution',
  'boundary',
  'outcome',
] as const);

/**
 * The roles a step plays: a `guard` may refuse the call, a `transform` changes the args, a `branch`
 * may end the call early with a non-error answer, a `hook` lets listeners intercept, `execution`
 * runs the handler, a `boundary` wraps another step, and the `outcome` spans every terminal path.
 */
export const InvocationStepRole = Object.freeze({
  GUARD: 'guard',
  TRANSFORM: 'transform',
  BRANCH: 'branch',
  HOOK: 'hook',
  EXECUTION: 'execution',
  BOUNDARY: 'boundary',
  OUTCOME: 'outcome',
  /** Every role, in declaration order. */
  values: ROLES,
  /** True when `value` names a role. */
  isInvocationStepRole(value: unknown): value is InvocationStepRole {
    return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
  },
} as const);
