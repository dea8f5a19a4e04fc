import { MilpaError } from '@milpa/core';
import type { InvocationRuleSummary } from '../invocation/invocation-rule-set.js';

/** What one call costs the rate limiter's bucket. */
export interface RateCosts {
  /** Cost of a call to a non-mutating tool (default 1). */
  readonly call: number;
  /** Cost of a call to a mutating tool (default 5). */
  readonly mutating: number;
}

const DEFAULT_COSTS: RateCosts = Object.freeze({ call: 1, mutating: 5 });

/** The registry's optional pipeline settings, as inspection shows them. */
export interface PipelineWiring {
  /** The invocation rules, in registration order (default none). */
  readonly rules?: readonly InvocationRuleSummary[];
  /** How many target resolvers are registered (default 0). */
  readonly targetResolvers?: number;
  /** Whether argument tidying is on (default false). */
  readonly tidyArguments?: boolean;
  /** The result cap in characters; 0 when off (default 10,000). */
  readonly maxResultChars?: number;
  /** Whether an approval gate is consulted for a tool's mutating calls (default: for none). */
  readonly approvalGateFor?: (toolName: string) => boolean;
}

const NO_APPROVAL_GATE = (): boolean => false;

const NO_RULES: readonly InvocationRuleSummary[] = Object.freeze([]);

function invalid(message: string): MilpaError {
  return new MilpaError(`RegistryWiring: ${message}`, { code: 'INVALID_ARGUMENT' });
}

/**
 * Which optional collaborators a registry really has plugged in, as the host reports them
 * (`registry.hasRateLimiter()`, `registry.hasDispatcher()`, `gate.hasRuleProvider()`), plus the
 * rate costs the registry charges. The plan builder derives `skipped` steps from it; it never guesses.
 *
 * @example
 * const wiring = new RegistryWiring(registry.hasRateLimiter(), registry.hasDispatcher(), gate.hasRuleProvider());
 */
export class RegistryWiring {
  /** Whether a rate limiter is wired. */
  readonly hasRateLimiter: boolean;
  /** Whether an event dispatcher is wired (so `tool.executing` can be intercepted). */
  readonly hasDispatcher: boolean;
  /** Whether a policy rule provider is wired. */
  readonly hasRuleProvider: boolean;
  /** The rate costs the registry charges per call. */
  readonly costs: RateCosts;
  /** The registry's invocation rules, in registration order. */
  readonly rules: readonly InvocationRuleSummary[];
  /** How many target resolvers the registry has. */
  readonly targetResolvers: number;
  /** Whether argument tidying is on. */
  readonly tidyArguments: boolean;
  /** The result cap in characters; 0 when off. */
  readonly maxResultChars: number;
  readonly #approvalGateFor: (toolName: string) => boolean;

  /**
   * @throws MilpaError `INVALID_ARGUMENT` for a non-boolean flag, a negative or non-finite cost, or
   *   malformed invocation wiring.
   */
  constructor(
    hasRateLimiter: boolean,
    hasDispatcher: boolean,
    hasRuleProvider: boolean,
    costs: RateCosts = DEFAULT_COSTS,
    invocation: PipelineWiring = {},
  ) {
    if (typeof hasRateLimiter !== 'boolean' || typeof hasDispatcher !== 'boolean' || typeof hasRuleProvider !== 'boolean') {
      throw invalid('hasRateLimiter, hasDispatcher and hasRuleProvider must be booleans.');
    }
    if (typeof costs !== 'object' || costs === null) throw invalid('costs must be { call, mutating }.');
    for (const key of ['call', 'mutating'] as const) {
      const cost = costs[key];
      if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
        throw invalid(`costs.${key} must be a finite number >= 0, got ${String(cost)}.`);
      }
    }
    const rules = invocation.rules ?? NO_RULES;
    const targetResolvers = invocation.targetResolvers ?? 0;
    if (!Array.isArray(rules) || rules.some((rule) => typeof rule !== 'object' || rule === null || typeof rule.identifier !== 'string')) {
      throw invalid('invocation.rules must be an array of { identifier, requiresCompleteHistory, tools }.');
    }
    if (!Number.isInteger(targetResolvers) || targetResolvers < 0) throw invalid('invocation.targetResolvers must be a whole number >= 0.');
    const tidyArguments = invocation.tidyArguments ?? false;
    const maxResultChars = invocation.maxResultChars ?? 10_000;
    if (typeof tidyArguments !== 'boolean') throw invalid('tidyArguments must be a boolean.');
    if (!Number.isInteger(maxResultChars) || maxResultChars < 0) throw invalid('maxResultChars must be a whole number >= 0.');
    const approvalGateFor = invocation.approvalGateFor ?? NO_APPROVAL_GATE;
    if (typeof approvalGateFor !== 'function') throw invalid('approvalGateFor must be a function of the tool name.');
    this.hasRateLimiter = hasRateLimiter;
    this.hasDispatcher = hasDispatcher;
    this.hasRuleProvider = hasRuleProvider;
    this.costs = costs === DEFAULT_COSTS ? DEFAULT_COSTS : Object.freeze({ call: costs.call, mutating: costs.mutating });
    this.rules = rules === NO_RULES ? NO_RULES : Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
    this.targetResolvers = targetResolvers;
    this.tidyArguments = tidyArguments;
    this.maxResultChars = maxResultChars;
    this.#approvalGateFor = approvalGateFor;
    Object.freeze(this);
  }

  /** The rules that apply to calls of `toolName`, in registration order. */
  rulesFor(toolName: string): readonly InvocationRuleSummary[] {
    return this.rules.filter((rule) => rule.tools === null || rule.tools.includes(toolName));
  }

  /** True when an approval gate is consulted for `toolName`'s mutating calls. */
  hasApprovalGate(toolName: string): boolean {
    return this.#approvalGateFor(toolName) === true;
  }

  /** The cost one call to a tool charges: `costs.mutating` when it mutates, else `costs.call`. */
  costOf(mutating: boolean): number {
    return mutating ? this.costs.mutating : this.costs.call;
  }
}
