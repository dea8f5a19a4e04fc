// @milpa/tool-runtime/inspection: what a call would do, without running it. The invocation plan
// that `registry.inspect()` answers, its steps, and the registry's wiring.

export { InvocationStepKind, isHostStepKind, type HostStepKind } from './invocation-step-kind.js';
export { InvocationStepRole } from './invocation-step-role.js';
export { StepPresence } from './step-presence.js';
export { InvocationStep, type InvocationStepInit, type InvocationStepJson } from './invocation-step.js';
export { RegistryWiring, type RateCosts, type PipelineWiring } from './registry-wiring.js';
export {
  InvocationPlan,
  type InvocationPlanContext,
  type InvocationPlanInit,
  type InvocationPlanJson,
  type InvocationPlanWiring,
  type WiringState,
} from './invocation-plan.js';
export type { InspectablePolicy } from './inspectable-policy.js';
export { InvocationPlanBuilder } from './invocation-plan-builder.js';
