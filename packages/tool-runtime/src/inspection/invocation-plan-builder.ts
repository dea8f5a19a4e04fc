import { isRecord } from '@milpa/core/kit';
import { MilpaError, type AnyToolDefinition, type ToolContext } from '@milpa/core';
import { BUILT_IN_STAGES } from '../pipeline/stage-list.js';
import type { Stage, StageSubject } from '../pipeline/stage.js';
import { FAIL_CLOSED_CHANNEL_POLICY, type ChannelPolicy } from '../policy/channel-policy.js';
import type { InspectablePolicy } from './inspectable-policy.js';
import { InvocationPlan } from './invocation-plan.js';
import { InvocationStep } from './invocation-step.js';
import { RegistryWiring } from './registry-wiring.js';

/** The plan format this builder writes. */
const SCHEMA_VERSION = '1.0';

function invalid(message: string): MilpaError {
  return new MilpaError(`InvocationPlanBuilder: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function assumptionsOf(context: ToolContext, policy: ChannelPolicy, registered: boolean): string[] {
  const assumptions: string[] = [];
  // A principal such as '0' is a real id; only null and '' are anonymous.
  if ((context.principal === null || context.principal === '') && policy.require_auth === true) {
    assumptions.push(`anonymous actor; ${context.channel} requires auth → authorize would deny`);
  }
  if (!registered) {
    assumptions.push(`channel '${context.channel}' has no registered policy; the fail-closed policy (require_auth) is in effect`);
  }
  return assumptions;
}

/**
 * The plan of `tool` for `context` from `stages`, each describing itself. The registry calls this
 * with its own stage list (host stages included); {@link InvocationPlanBuilder} with the built-in one.
 * @internal
 */
export function buildInvocationPlan(
  policy: InspectablePolicy,
  stages: readonly Stage[],
  tool: AnyToolDefinition,
  context: ToolContext,
  wiring: RegistryWiring,
): InvocationPlan {
  if (!isRecord(tool) || typeof tool.name !== 'string' || !isRecord(tool.inputSchema)) {
    throw invalid('tool must be a tool definition (see defineTool).');
  }
  if (!isRecord(context) || typeof context.channel !== 'string') throw invalid('context must be a ToolContext.');
  if (!(wiring instanceof RegistryWiring)) throw invalid('wiring must be a RegistryWiring.');

  const channel = context.channel;
  const channelPolicy = policy.channelPolicy(channel);
  const registered =
    typeof policy.hasChannelPolicy === 'function' ? policy.hasChannelPolicy(channel) : channelPolicy !== FAIL_CLOSED_CHANNEL_POLICY;
  const subject: StageSubject = { tool, context, wiring, policy, channelPolicy };

  return new InvocationPlan({
    schemaVersion: SCHEMA_VERSION,
    operation: tool.name,
    channel,
    context: { actor: context.principal, scopes: context.scopes, mode: context.mode },
    assumptions: assumptionsOf(context, channelPolicy, registered),
    wiring: {
      rateLimiter: wiring.hasRateLimiter ? 'present' : 'absent',
      dispatcher: wiring.hasDispatcher ? 'present' : 'absent',
      ruleProvider: wiring.hasRuleProvider ? 'present' : 'absent',
    },
    steps: stages.flatMap((stage) => stage.describe(subject).map((init) => new InvocationStep(init))),
  });
}

/**
 * Builds an honest {@link InvocationPlan} for one tool, caller and registry wiring by asking each
 * stage of the pipeline to describe itself — the same list `call()` runs, so the plan lists every
 * stage in the order a call runs them, including the ones that cannot fire (`dormant`) or are not
 * wired (`skipped`). It only reads the policy, the tool and the wiring: it never executes the
 * handler, dispatches an event, consumes rate budget, mints a token or invents a principal.
 * `registry.inspect()` does the same and also lists the registry's host stages.
 *
 * @example
 * const builder = new InvocationPlanBuilder(registry.getPolicyGate());
 * const plan = builder.build(registry.getDefinition('delete_note')!, ToolContext.telegram(42), registry.getWiring());
 * plan.getStep('confirm').presence; // 'conditional' (telegram confirms mutating tools)
 */
export class InvocationPlanBuilder {
  readonly #policy: InspectablePolicy;

  /** @throws MilpaError `INVALID_ARGUMENT` when `policy` lacks `channelPolicy()` or `hasRuleProvider()`. */
  constructor(policy: InspectablePolicy) {
    if (
      typeof policy !== 'object' ||
      policy === null ||
      typeof policy.channelPolicy !== 'function' ||
      typeof policy.hasRuleProvider !== 'function'
    ) {
      throw invalid('policy must provide channelPolicy(channel) and hasRuleProvider().');
    }
    this.#policy = policy;
  }

  /**
   * The plan of `tool` for the caller in `context`, given what the registry has wired.
   * @throws MilpaError `INVALID_ARGUMENT` when an argument has the wrong shape.
   */
  build(tool: AnyToolDefinition, context: ToolContext, wiring: RegistryWiring): InvocationPlan {
    return buildInvocationPlan(this.#policy, BUILT_IN_STAGES, tool, context, wiring);
  }
}
