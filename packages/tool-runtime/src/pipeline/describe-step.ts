import type { InvocationStepInit } from '../inspection/invocation-step.js';
import type { InvocationStepRole } from '../inspection/invocation-step-role.js';
import type { StepPresence } from '../inspection/step-presence.js';

/** One plan step as a stage describes it (a one-element list, as `Stage.describe` returns). */
export function describeStep(
  kind: InvocationStepInit['kind'],
  role: InvocationStepRole,
  presence: StepPresence,
  blocking: boolean,
  mutates: boolean,
  source: string,
  wraps: InvocationStepInit['wraps'] = null,
): InvocationStepInit {
  return { kind, role, presence, blocking, mutates, wraps, source };
}
