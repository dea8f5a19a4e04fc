/** Whether a step runs for one tool, channel and wiring. */
export type StepPresence = 'active' | 'conditional' | 'dormant' | 'skipped';

const PRESENCES: readonly StepPresence[] = Object.freeze(['active', 'conditional', 'dormant', 'skipped'] as const);

/**
 * How present a step is: `active` runs, `conditional` depends on data known only at call time,
 * `dormant` exists but the static facts make it impossible to fire, `skipped` is not wired at all.
 * (An earlier value, `inert`, is gone and is not accepted.)
 */
export const StepPresence = Object.freeze({
  ACTIVE: 'active',
  CONDITIONAL: 'conditional',
  DORMANT: 'dormant',
  SKIPPED: 'skipped',
  /** Every presence, in declaration order. */
  values: PRESENCES,
  /** True when `value` names a presence. */
  isStepPresence(value: unknown): value is StepPresence {
    return typeof value === 'string' && (PRESENCES as readonly string[]).includes(value);
  },
} as const);
