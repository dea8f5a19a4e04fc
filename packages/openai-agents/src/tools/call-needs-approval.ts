import { isMutatingCall, type AnyToolDefinition, type ToolContext } from '@milpa/core';
import type { AgentsToolRegistry } from '../registry/agents-tool-registry.js';

const APPLIES = new Set(['active', 'conditional']);

function stepApplies(plan: ReturnType<NonNullable<AgentsToolRegistry['inspect']>>, kind: string): boolean | null {
  if (plan === null || typeof plan !== 'object' || !Array.isArray(plan.steps)) return null;
  const step = plan.steps.find((candidate) => candidate.kind === kind);
  return step === undefined ? false : APPLIES.has(step.presence);
}

/**
 * Whether the person running the agent must approve this call before it runs: when it mutates for
 * these arguments (Milpa's per-call mutability; a function that throws counts as mutating) and the
 * registry meets it with an approval gate, or when the registry asks for a confirmation (the tool
 * requires one, or the channel confirms mutating calls). A registry that cannot explain its plan,
 * or a plan that cannot be read, leaves every mutating or confirming call to the person.
 */
export function callNeedsApproval(
  registry: AgentsToolRegistry,
  definition: AnyToolDefinition,
  args: Readonly<Record<string, unknown>>,
  context: ToolContext,
): boolean {
  const mutating = isMutatingCall(definition, args);
  // Neither gate can apply to a read-only call of a tool that asks for no confirmation, so the
  // registry's plan (the dearest part of the question) is not built for it.
  if (!mutating && !definition.requiresConfirmation) return false;
  let plan: ReturnType<NonNullable<AgentsToolRegistry['inspect']>> = null;
  try {
    plan = typeof registry.inspect === 'function' ? registry.inspect(definition.name, context) : null;
  } catch {
    plan = null;
  }
  const gated = stepApplies(plan, 'approve');
  const confirmed = stepApplies(plan, 'confirm');
  if (gated === null || confirmed === null) return mutating || definition.requiresConfirmation;
  if (gated && mutating) return true;
  return confirmed && (mutating || definition.requiresConfirmation);
}
