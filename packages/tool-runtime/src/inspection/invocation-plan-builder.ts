import { MilpaError, type AnyToolDefinition, type JsonSchema, type ToolContext } from '@milpa/core';
import { FAIL_CLOSED_CHANNEL_POLICY, type ChannelPolicy } from '../policy/channel-policy.js';
import type { InspectablePolicy } from './inspectable-policy.js';
import { InvocationPlan } from './invocation-plan.js';
import { InvocationStepKind } from './invocation-step-kind.js';
import type { InvocationStepRole } from './invocation-step-role.js';
import { InvocationStep } from './invocation-step.js';
import { RegistryWiring } from './registry-wiring.js';
import type { StepPresence } from './step-presence.js';

/** The plan format this builder writes. */
const SCHEMA_VERSION = '1.0';

// DESIGN decision 3: unlike the PHP original, this runtime audits every terminal path, so the
// source lists them all instead of the seed's "does NOT audit resolve-miss, plan-mode, …".
const AUDITED_PATHS = [
  'resolve-miss',
  'validation-failure',
  'authorization-failure',
  'rate-limit',
  'plan-mode',
  'confirmation-request',
  'invalid-token',
  'veto',
  'cache-hit',
  'execute-success',
  'execute-failure',
] as const;

const AUDIT_SOURCE =
  `audits every terminal path (DESIGN decision 3), each as a structured record passed to the logger: ` +
  `${AUDITED_PATHS.join(', ')}; nothing returns unaudited, not even a resolve miss`;

// Keywords that describe a schema without constraining the arguments.
const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'examples',
  'default',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when the schema constrains the arguments at all (properties, required or any other keyword). */
function hasConstraints(schema: JsonSchema): boolean {
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') {
      if (isRecord(value) && Object.keys(value).length > 0) return true;
    } else if (key === 'required') {
      if (Array.isArray(value) && value.length > 0) return true;
    } else if (!ANNOTATION_KEYWORDS.has(key)) {
      return true;
    }
  }
  return false;
}

function describeClamps(clamps: AnyToolDefinition['clamps']): string {
  return Object.entries(clamps)
    .map(([field, rule]) => {
      const bounds = (['min', 'max', 'maxLength'] as const)
        .filter((key) => rule[key] !== undefined)
        .map((key) => `${key}=${String(rule[key])}`);
      return `${field} {${bounds.join(', ')}}`;
    })
    .join(', ');
}

function step(
  kind: InvocationStepKind,
  role: InvocationStepRole,
  presence: StepPresence,
  blocking: boolean,
  mutates: boolean,
  source: string,
  wraps: InvocationStepKind | null = null,
): InvocationStep {
  return new InvocationStep({ kind, role, presence, blocking, mutates, wraps, source });
}

function invalid(message: string): MilpaError {
  return new MilpaError(`InvocationPlanBuilder: ${message}`, { code: 'INVALID_ARGUMENT' });
}

/**
 * Builds an honest {@link InvocationPlan} for one tool, caller and registry wiring: every stage of
 * `call()`, including the ones that cannot fire (`dormant`) or are not wired (`skipped`). It only
 * reads the policy, the tool and the wiring: it never executes the handler, dispatches an event,
 * consumes rate budget, mints a token or invents a principal.
 *
 * @example
 * const builder = new InvocationPlanBuilder(registry.getPolicyGate());
 * const wiring = new RegistryWiring(registry.hasRateLimiter(), registry.hasDispatcher(), gate.hasRuleProvider());
 * const plan = builder.build(registry.getDefinition('delete_note')!, ToolContext.telegram(42), wiring);
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
    if (!isRecord(tool) || typeof tool.name !== 'string' || !isRecord(tool.inputSchema)) {
      throw invalid('tool must be a tool definition (see defineTool).');
    }
    if (!isRecord(context) || typeof context.channel !== 'string') throw invalid('context must be a ToolContext.');
    if (!(wiring instanceof RegistryWiring)) throw invalid('wiring must be a RegistryWiring.');

    const channel = context.channel;
    const policy = this.#policy.channelPolicy(channel);
    const registered =
      typeof this.#policy.hasChannelPolicy === 'function'
        ? this.#policy.hasChannelPolicy(channel)
        : policy !== FAIL_CLOSED_CHANNEL_POLICY;

    const steps = InvocationStepKind.inspectionOrder().map((kind) => this.#resolveStep(kind, tool, context, wiring, policy));

    return new InvocationPlan({
      schemaVersion: SCHEMA_VERSION,
      operation: tool.name,
      channel,
      context: { actor: context.principal, scopes: context.scopes, mode: context.mode },
      assumptions: this.#assumptions(context, policy, registered),
      wiring: {
        rateLimiter: wiring.hasRateLimiter ? 'present' : 'absent',
        dispatcher: wiring.hasDispatcher ? 'present' : 'absent',
        ruleProvider: wiring.hasRuleProvider ? 'present' : 'absent',
      },
      steps,
    });
  }

  #resolveStep(
    kind: InvocationStepKind,
    tool: AnyToolDefinition,
    context: ToolContext,
    wiring: RegistryWiring,
    policy: ChannelPolicy,
  ): InvocationStep {
    switch (kind) {
      case 'resolve':
        return step(kind, 'guard', 'active', true, false, 'registry lookup by name; an unknown name returns TOOL_NOT_FOUND');
      case 'validate':
        return hasConstraints(tool.inputSchema)
          ? step(kind, 'guard', 'active', true, false, 'tool inputSchema (JSON Schema 2020-12); a failure returns VALIDATION_ERROR with meta.errors')
          : step(kind, 'guard', 'skipped', true, false, 'tool inputSchema is empty (no properties, required or constraints): nothing to validate');
      case 'clamp': {
        const clamped = Object.keys(tool.clamps).length > 0;
        return clamped
          ? step(kind, 'transform', 'active', false, true, `tool clamps: ${describeClamps(tool.clamps)}; applied before validation, they coerce and never reject`)
          : step(kind, 'transform', 'skipped', false, false, 'tool declares no clamps');
      }
      case 'authorize':
        return step(kind, 'guard', 'active', true, false, this.#authorizeSource(tool, context.channel, policy));
      case 'rate_limit': {
        const state = wiring.hasRateLimiter ? 'present' : 'absent';
        const source =
          `host wiring: rateLimiter ${state}; cost mutating ? ${wiring.costs.mutating} : ${wiring.costs.call} ` +
          `(mutating=${String(tool.mutating)} → cost ${wiring.costOf(tool.mutating)}); key channel:principal:tool`;
        return step(kind, 'guard', wiring.hasRateLimiter ? 'active' : 'skipped', true, false, source);
      }
      case 'plan_mode':
        return step(
          kind,
          'branch',
          'conditional',
          false,
          false,
          `context.mode == 'plan'; actual: ${context.mode} (plan mode returns the plan before confirm and execute)`,
        );
      case 'confirm':
        return this.#confirmStep(tool, policy);
      case 'emit_executing':
        return wiring.hasDispatcher
          ? step(kind, 'hook', 'active', true, false, 'host wiring: dispatcher present; tool.executing fires after every gate, and a listener may short-circuit (cache) or veto')
          : step(kind, 'hook', 'skipped', true, false, 'host wiring: dispatcher absent; nothing can intercept the call');
      case 'execute': {
        const timeout = tool.hardTimeout
          ? `timeout ${tool.timeoutMs} ms, hard: TIMEOUT is returned at the deadline without waiting for the handler`
          : `timeout ${tool.timeoutMs} ms, soft: the signal aborts at the deadline and a late result carries meta.timeout_exceeded`;
        return step(kind, 'execution', 'active', true, tool.mutating, `handler(args, { context, signal, caller }); no _ctx in args; ${timeout}`);
      }
      case 'contain_exception':
        return step(
          kind,
          'boundary',
          'active',
          false,
          false,
          'wraps execute; any throw (an Error or any other value) is mapped to INTERNAL_ERROR, so call() never rejects',
          'execute',
        );
      case 'audit':
        return step(kind, 'outcome', 'active', false, false, AUDIT_SOURCE);
    }
  }

  #authorizeSource(tool: AnyToolDefinition, channel: string, policy: ChannelPolicy): string {
    const allowAll = policy.allow_all === true;
    const parts = [
      `channel '${channel}': require_auth=${String(policy.require_auth === true)}, allow_all=${String(allowAll)}, ` +
        `block_mutating=${String(policy.block_mutating === true)}`,
    ];
    if (allowAll) {
      // The seed called this "god-mode, never blocks", which was false (reference §4 item 14).
      parts.push('allow_all only skips the final channel-policy step (block_mutating); require_auth, scopes, rules and confirmation still apply');
    }
    parts.push(tool.scopes.length > 0 ? `tool requires one of the scopes: ${tool.scopes.join(', ')}` : 'tool has no declared scopes');
    parts.push(this.#policy.hasRuleProvider() ? 'rule provider: present, consulted' : 'rule provider: absent, rules skipped');
    return parts.join('; ');
  }

  // Mirrors the two branches of PolicyGate.requiresConfirmation(), in the same order.
  #confirmStep(tool: AnyToolDefinition, policy: ChannelPolicy): InvocationStep {
    const kind = InvocationStepKind.CONFIRM;
    if (tool.requiresConfirmation) {
      return step(kind, 'branch', 'conditional', true, false, 'tool.requiresConfirmation → a call without confirm_token returns a token instead of executing; the replay runs the first call\'s args');
    }
    const forMutating = policy.require_confirmation_for_mutating === true;
    if (forMutating && tool.mutating) {
      return step(kind, 'branch', 'conditional', true, false, 'channel policy require_confirmation_for_mutating + tool.mutating → a call without confirm_token returns a token instead of executing (although the tool does not ask for it)');
    }
    if (forMutating) {
      return step(kind, 'branch', 'dormant', false, false, 'channel policy require_confirmation_for_mutating exists, but mutating=false makes it impossible');
    }
    return step(kind, 'branch', 'dormant', false, false, 'neither tool.requiresConfirmation nor channel policy require_confirmation_for_mutating applies');
  }

  #assumptions(context: ToolContext, policy: ChannelPolicy, registered: boolean): string[] {
    const assumptions: string[] = [];
    // A principal such as '0' is a real id; only null and '' are anonymous (reference §3 N226).
    if ((context.principal === null || context.principal === '') && policy.require_auth === true) {
      assumptions.push(`anonymous actor; ${context.channel} requires auth → authorize would deny`);
    }
    if (!registered) {
      assumptions.push(`channel '${context.channel}' has no registered policy; the fail-closed policy (require_auth) is in effect`);
    }
    return assumptions;
  }
}
