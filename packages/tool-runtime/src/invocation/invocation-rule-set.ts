import { MilpaError, isInvocationCode, type InvocationHistoryStore, type InvocationRule, type TargetResolver } from '@milpa/core';

/** What inspection shows of one invocation rule. */
export interface InvocationRuleSummary {
  /** The rule's identifier. */
  readonly identifier: string;
  /** True when the rule refuses calls whose run history cannot be proven complete. */
  readonly requiresCompleteHistory: boolean;
  /** The tools it applies to; null for every tool. */
  readonly tools: readonly string[] | null;
}

/** A rule as the rules stage runs it: checked and frozen at registration. */
export interface CheckedRule {
  readonly rule: InvocationRule;
  readonly identifier: string;
  readonly requiresCompleteHistory: boolean;
  readonly tools: ReadonlySet<string> | null;
}

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_INVOCATION_RULE' });
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `'${value.slice(0, 80)}'` : typeof value;
}

function checkRule(rule: unknown, known: ReadonlySet<string>): CheckedRule {
  if (typeof rule !== 'object' || rule === null)
    throw invalid('An invocation rule must be an object with an identifier and an evaluate(invocation) function.');
  const { identifier, evaluate, requiresCompleteHistory, tools } = rule as Partial<InvocationRule>;
  if (!isInvocationCode(identifier)) {
    throw invalid(
      `Invocation rule identifier ${describeValue(identifier)} is invalid: use a lower-case ASCII letter, then lower-case ` +
        `letters, digits, _, . or -, at most 64 characters.`,
    );
  }
  if (known.has(identifier)) throw invalid(`Invocation rule '${identifier}' is already registered; identifiers are unique per registry.`);
  if (typeof evaluate !== 'function') throw invalid(`Invocation rule '${identifier}' needs an evaluate(invocation) function.`);
  if (requiresCompleteHistory !== undefined && typeof requiresCompleteHistory !== 'boolean') {
    throw invalid(`Invocation rule '${identifier}': requiresCompleteHistory must be a boolean.`);
  }
  if (
    tools !== undefined &&
    (!Array.isArray(tools) || tools.length === 0 || tools.some((name) => typeof name !== 'string' || name === ''))
  ) {
    throw invalid(`Invocation rule '${identifier}': tools must be a non-empty array of tool names.`);
  }
  return Object.freeze({
    rule: rule as InvocationRule,
    identifier,
    requiresCompleteHistory: requiresCompleteHistory === true,
    tools: tools === undefined ? null : new Set(tools),
  });
}

function checkResolver(resolver: unknown, index: number): TargetResolver {
  if (typeof resolver !== 'object' || resolver === null || typeof (resolver as Partial<TargetResolver>).resolve !== 'function') {
    throw invalid(`Target resolver ${index} must be an object with a resolve(request) function.`);
  }
  return resolver as TargetResolver;
}

const STORE_METHODS = ['startRun', 'load', 'append', 'reserve', 'settle'] as const;

/**
 * A store without `reserve` and `settle` is refused here rather than run without them: calls of a
 * run made in parallel would then each pass a per-run limit, and no lock in this process could
 * stop the calls of another process sharing the store.
 */
function checkStore(store: unknown): InvocationHistoryStore {
  const missing =
    typeof store !== 'object' || store === null
      ? STORE_METHODS
      : STORE_METHODS.filter((method) => typeof (store as Partial<InvocationHistoryStore>)[method] !== 'function');
  if (missing.length > 0) {
    throw invalid(
      `historyStore must have startRun(runId), load(runId), append(runId, observation), reserve(runId, call, leaseMs) and ` +
        `settle(runId, reservationId, observation) functions; missing: ${missing.join(', ')}. ` +
        'reserve and settle keep per-run limits for calls made in parallel: a store without them is refused rather than let ' +
        'those calls pass a limit together.',
    );
  }
  return store as InvocationHistoryStore;
}

const NO_RULES: readonly CheckedRule[] = Object.freeze([]);

/**
 * A registry's invocation rules (in registration order), target resolvers and history store,
 * checked when they are registered: identifiers follow the grammar and are unique, rules have an
 * `evaluate`, resolvers a `resolve`. A bad entry throws and changes nothing.
 * @internal
 */
export class InvocationRuleSet {
  #rules: readonly CheckedRule[] = NO_RULES;
  readonly resolvers: readonly TargetResolver[];
  readonly store: InvocationHistoryStore;
  /** How long a call holds its place in its run's history, in milliseconds. */
  readonly leaseMs: number;
  /** Rules per tool name, rebuilt when a rule is added. */
  readonly #byTool = new Map<string, readonly CheckedRule[]>();

  /** @throws MilpaError `INVALID_INVOCATION_RULE` for a malformed or duplicate rule, resolver or store. */
  constructor(
    rules: readonly InvocationRule[] | undefined,
    resolvers: readonly TargetResolver[] | undefined,
    store: InvocationHistoryStore,
    leaseMs: number,
  ) {
    if (rules !== undefined && !Array.isArray(rules)) throw invalid('rules must be an array of invocation rules.');
    if (resolvers !== undefined && !Array.isArray(resolvers)) throw invalid('targetResolvers must be an array of target resolvers.');
    this.store = checkStore(store);
    this.leaseMs = leaseMs;
    this.resolvers = Object.freeze((resolvers ?? []).map(checkResolver));
    this.addAll(rules ?? []);
  }

  /** Every rule, in registration order. */
  get rules(): readonly CheckedRule[] {
    return this.#rules;
  }

  /** Adds rules after the existing ones, all or none. */
  addAll(rules: readonly InvocationRule[]): void {
    const known = new Set(this.#rules.map((checked) => checked.identifier));
    const added: CheckedRule[] = [];
    for (const rule of rules) {
      const checked = checkRule(rule, known);
      known.add(checked.identifier);
      added.push(checked);
    }
    if (added.length === 0) return;
    this.#rules = Object.freeze([...this.#rules, ...added]);
    this.#byTool.clear();
  }

  /** The rules that apply to calls of `toolName`, in registration order. */
  rulesFor(toolName: string): readonly CheckedRule[] {
    if (this.#rules.length === 0) return NO_RULES;
    let rules = this.#byTool.get(toolName);
    if (rules === undefined) {
      rules = Object.freeze(this.#rules.filter((checked) => checked.tools === null || checked.tools.has(toolName)));
      this.#byTool.set(toolName, rules);
    }
    return rules;
  }

  /** What inspection shows of the rules. */
  summaries(): readonly InvocationRuleSummary[] {
    return this.#rules.map((checked) => ({
      identifier: checked.identifier,
      requiresCompleteHistory: checked.requiresCompleteHistory,
      tools: checked.tools === null ? null : [...checked.tools],
    }));
  }
}
