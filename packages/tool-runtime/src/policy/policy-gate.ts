import {
  MilpaError,
  ToolContext,
  silentLogger,
  type Logger,
  type PolicyRule,
  type PolicyRuleProvider,
  type ToolMutating,
} from '@milpa/core';
import { describeError } from '../audit/describe-error.js';
import { swallowRejection } from '../audit/swallow-rejection.js';
import { AuthorizationResult } from './authorization-result.js';
import { DEFAULT_CHANNEL_POLICIES, FAIL_CLOSED_CHANNEL_POLICY, type ChannelPolicy } from './channel-policy.js';

/** What the gate needs to know about a tool (a `ToolDefinition` satisfies it). */
export interface PolicySubject {
  /** The tool's name, used in denial messages and passed to the rule provider. */
  readonly name: string;
  /** Scopes of which the caller needs at least one; empty for none. */
  readonly scopes: readonly string[];
  /**
   * Whether the tool changes state (`block_mutating`, `require_confirmation_for_mutating`): a
   * boolean, or a function of the call's arguments (whose answer a caller passes as `mutating`).
   */
  readonly mutating: ToolMutating<any>;
  /** Whether every call needs a confirmation round trip. */
  readonly requiresConfirmation: boolean;
}

/** Options of {@link PolicyGate}. */
export interface PolicyGateOptions {
  /** Where unknown-channel warnings and rule-provider failures are written. Default: silent. */
  readonly logger?: Logger;
  /** Host rules consulted after require_auth and the scope check. Default: none. */
  readonly ruleProvider?: PolicyRuleProvider | null;
  /** Channel policies by channel; each replaces that channel's built-in policy wholesale. */
  readonly channelPolicies?: Readonly<Record<string, ChannelPolicy>>;
}

const POLICY_KEYS: ReadonlySet<string> = new Set(['allow_all', 'require_auth', 'block_mutating', 'require_confirmation_for_mutating']);

function invalidPolicy(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_CHANNEL_POLICY' });
}

/** Validates a channel policy and returns a frozen copy holding only its boolean keys. */
function normalizePolicy(channel: unknown, policy: unknown): ChannelPolicy {
  if (typeof channel !== 'string' || channel === '') throw invalidPolicy('A channel policy needs a non-empty channel name.');
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) {
    throw invalidPolicy(`The policy for channel '${channel}' must be an object.`);
  }
  const copy: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(policy)) {
    // An unknown key is almost always a typo of a security setting (`require_auht`); refuse it
    // rather than run a laxer policy than the host wrote.
    if (!POLICY_KEYS.has(key)) {
      throw invalidPolicy(`Unknown key '${key}' in the policy for channel '${channel}'. Known keys: ${[...POLICY_KEYS].join(', ')}.`);
    }
    if (typeof value !== 'boolean') {
      throw invalidPolicy(`'${key}' in the policy for channel '${channel}' must be a boolean, got ${typeof value}.`);
    }
    copy[key] = value;
  }
  return Object.freeze(copy);
}

function joinScopes(scopes: readonly string[]): string {
  return scopes.length === 0 ? '(none)' : scopes.join(', ');
}

function ruleLabel(rule: PolicyRule): string {
  // A rule without an id renders "(no id)", never a bare "#", so the reason still reads.
  return rule.id === null || rule.id === undefined || rule.id === '' ? '(no id)' : `#${String(rule.id)}`;
}

const STOCK_HAS_ANY_SCOPE = ToolContext.prototype.hasAnyScope;
const STOCK_HAS_SCOPE = ToolContext.prototype.hasScope;

/**
 * `context.hasAnyScope(scopes)` without its per-call closure: the same answer, computed inline when
 * the context uses ToolContext's own scope methods (a subclass that overrides either one is asked
 * through its method, as before).
 */
function holdsAnyScope(context: ToolContext, scopes: readonly string[]): boolean {
  if (context.hasAnyScope !== STOCK_HAS_ANY_SCOPE || context.hasScope !== STOCK_HAS_SCOPE) return context.hasAnyScope(scopes);
  const held = context.scopes;
  if (held.includes('*')) return scopes.length > 0;
  for (let index = 0; index < scopes.length; index++) {
    if (held.includes(scopes[index]!)) return true;
  }
  return false;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function isRule(value: unknown): value is PolicyRule {
  if (typeof value !== 'object' || value === null) return false;
  const rule = value as Partial<PolicyRule>;
  return (
    typeof rule.effect === 'string' &&
    Array.isArray(rule.requiresScopes) &&
    (rule.description === null || rule.description === undefined || typeof rule.description === 'string')
  );
}

/** Options of {@link PolicyGate.authorize}. */
export interface AuthorizeOptions {
  /**
   * Skip the unknown-channel warning (the verdict is the same): for listing many tools for one
   * caller, which would otherwise log the warning once per tool.
   */
  readonly quiet?: boolean;
  /**
   * Whether this call mutates, for a tool whose mutability depends on its arguments: the answer of
   * `isMutatingCall(tool, args)` for the call's validated arguments, asked once by the caller. When
   * absent (no arguments yet, e.g. when listing), such a tool counts as not mutating, because some
   * arguments may make it callable; the call itself must then be authorized with its answer. A
   * boolean `tool.mutating` always answers for itself.
   */
  readonly mutating?: boolean;
}

/**
 * The mutability the gate decides on: a boolean flag as declared; for a per-call function, the
 * caller's answer for this call, else (no arguments known) false. Anything else counts as mutating.
 */
function decidingMutability(tool: PolicySubject, answer: boolean | undefined): boolean {
  const mutating: unknown = tool.mutating;
  if (typeof mutating === 'boolean') return mutating;
  if (typeof mutating === 'function') return answer ?? false;
  return true;
}

/**
 * Decides whether a context may call a tool, and whether the call needs a confirmation round trip.
 *
 * `authorize()` checks, in this order, and the first denial wins: the channel is known (an
 * unknown one logs a warning and gets the fail-closed policy), `require_auth`, the tool's scopes,
 * the host's rule provider, then the channel policy (`allow_all`, else `block_mutating`). The built-in
 * channel policies ({@link DEFAULT_CHANNEL_POLICIES}) apply unless replaced: `cli` allows all (trusted local operator), `mcp` and `web`
 * require an authenticated principal, `telegram` confirms mutating tools.
 *
 * It never throws: a rule provider that throws, rejects or returns a malformed rule denies the call
 * (fail-closed) with a reason naming the failure, and a throwing logger is ignored.
 *
 * @example
 * const gate = new PolicyGate({ logger: pino() });
 * gate.setChannelPolicy('api', { allow_all: false, block_mutating: true });
 * const verdict = gate.authorize(ToolContext.web('user:42', ['notes:read']), tool);
 * if (!verdict.allowed) return ToolResult.failure('FORBIDDEN', verdict.reason);
 */
export class PolicyGate {
  readonly #policies = new Map<string, ChannelPolicy>();
  #logger: Logger;
  #ruleProvider: PolicyRuleProvider | null = null;
  #revision = 0;

  constructor(options: PolicyGateOptions = {}) {
    for (const [channel, policy] of Object.entries(DEFAULT_CHANNEL_POLICIES)) this.#policies.set(channel, policy);
    this.#logger = silentLogger;
    if (options.logger !== undefined) this.setLogger(options.logger);
    if (options.ruleProvider !== undefined) this.setRuleProvider(options.ruleProvider);
    if (options.channelPolicies !== undefined) {
      // Validate every entry before applying any, so a bad entry changes nothing.
      const entries = Object.entries(options.channelPolicies).map(
        ([channel, policy]) => [channel, normalizePolicy(channel, policy)] as const,
      );
      for (const [channel, policy] of entries) this.#policies.set(channel, policy);
    }
  }

  /**
   * Authorizes `context` to call `tool`. Synchronous unless the rule provider answers with a promise;
   * never throws and never rejects.
   */
  authorize(context: ToolContext, tool: PolicySubject, options?: AuthorizeOptions): AuthorizationResult | Promise<AuthorizationResult> {
    const channel = context.channel;
    let policy = this.#policies.get(channel);
    const known = policy !== undefined;
    if (policy === undefined) {
      if (options?.quiet !== true) this.#warnUnknownChannel(channel);
      policy = FAIL_CLOSED_CHANNEL_POLICY;
    }

    // '0' is a real principal; null and '' are anonymous. Anything that is not a
    // string (a context that was never constructed) is anonymous too: fail closed.
    if (policy.require_auth === true && (typeof context.principal !== 'string' || context.principal === '')) {
      return AuthorizationResult.deny(
        `channel '${channel}' requires an authenticated principal (require_auth) — none provided.`,
        known ? 'require_auth' : 'unknown_channel',
      );
    }

    if (tool.scopes.length > 0 && !holdsAnyScope(context, tool.scopes)) {
      return AuthorizationResult.deny(
        `Missing required scope for tool '${tool.name}'. Need one of: ${tool.scopes.join(', ')} — context ` +
          `has: ${joinScopes(context.scopes)}.`,
        'missing_scope',
      );
    }

    const mutating = decidingMutability(tool, options?.mutating);
    const provider = this.#ruleProvider;
    if (provider === null) return PolicyGate.#applyChannelPolicy(policy, channel, tool, mutating);

    let answer: PolicyRule | null | Promise<PolicyRule | null>;
    try {
      answer = provider.findMatchingRule(channel, context.principal, tool.name, mutating);
    } catch (error) {
      return this.#providerFailed(context, tool, error);
    }
    if (isThenable(answer)) {
      return Promise.resolve(answer).then(
        (rule) => this.#decide(rule, policy, context, tool, mutating),
        (error: unknown) => this.#providerFailed(context, tool, error),
      );
    }
    return this.#decide(answer, policy, context, tool, mutating);
  }

  /**
   * True when the call needs a confirmation round trip: the tool asks for it on every channel, or it
   * is mutating and the channel's policy sets `require_confirmation_for_mutating`. For a tool whose
   * mutability depends on its arguments, pass this call's answer as `mutating`; without it the
   * answer is whether the call may need confirmation (true when the policy confirms mutating calls).
   */
  requiresConfirmation(context: ToolContext, tool: PolicySubject, mutating?: boolean): boolean {
    if (tool.requiresConfirmation) return true;
    const declared: unknown = tool.mutating;
    // Without an answer a per-call tool may mutate; anything that is not a boolean or function does.
    const mutates = typeof declared === 'boolean' ? declared : typeof declared === 'function' ? (mutating ?? true) : true;
    if (!mutates) return false;
    return this.channelPolicy(context.channel).require_confirmation_for_mutating === true;
  }

  /**
   * Replaces `channel`'s policy wholesale (no merge); the channel then counts as registered.
   *
   * @throws MilpaError `INVALID_CHANNEL_POLICY` for an empty channel name, a non-object policy, an
   *   unknown key or a non-boolean value; nothing is changed then.
   */
  setChannelPolicy(channel: string, policy: ChannelPolicy): void {
    this.#policies.set(channel, normalizePolicy(channel, policy));
    this.#revision++;
  }

  /**
   * A number that changes whenever a decision could change (a channel policy or the rule provider
   * is set), so a cache of verdicts knows when it is stale.
   */
  get revision(): number {
    return this.#revision;
  }

  /** The effective (frozen) policy of `channel`: its registered policy, or the fail-closed one. */
  channelPolicy(channel: string): ChannelPolicy {
    return this.#policies.get(channel) ?? FAIL_CLOSED_CHANNEL_POLICY;
  }

  /** True when `channel` has a built-in or host-registered policy. */
  hasChannelPolicy(channel: string): boolean {
    return this.#policies.has(channel);
  }

  /**
   * Sets where warnings go (a `ToolRegistry` passes its own logger, so the gate's warnings land
   * where the registry's do).
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `logger` lacks a `warn` or `error` method.
   */
  setLogger(logger: Logger): void {
    if (typeof logger !== 'object' || logger === null || typeof logger.warn !== 'function' || typeof logger.error !== 'function') {
      throw new MilpaError('PolicyGate logger must have warn() and error() methods.', { code: 'INVALID_ARGUMENT' });
    }
    this.#logger = logger;
  }

  /**
   * Sets (or, with null, removes) the host's rule provider.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `provider` has no `findMatchingRule` method.
   */
  setRuleProvider(provider: PolicyRuleProvider | null): void {
    if (provider !== null && (typeof provider !== 'object' || typeof provider.findMatchingRule !== 'function')) {
      throw new MilpaError('A rule provider must have a findMatchingRule() method.', { code: 'INVALID_ARGUMENT' });
    }
    this.#ruleProvider = provider;
    this.#revision++;
  }

  /** The rule provider, or null. */
  getRuleProvider(): PolicyRuleProvider | null {
    return this.#ruleProvider;
  }

  /** True when a rule provider is set. */
  hasRuleProvider(): boolean {
    return this.#ruleProvider !== null;
  }

  #decide(rule: unknown, policy: ChannelPolicy, context: ToolContext, tool: PolicySubject, mutating: boolean): AuthorizationResult {
    try {
      return this.#applyRule(rule, policy, context, tool, mutating);
    } catch (error) {
      // A rule whose fields throw when read (a getter, an id whose toString throws) is a provider failure.
      return this.#providerFailed(context, tool, error);
    }
  }

  #applyRule(rule: unknown, policy: ChannelPolicy, context: ToolContext, tool: PolicySubject, mutating: boolean): AuthorizationResult {
    // A missing rule is never an implicit deny: fall through to the channel policy.
    if (rule === null || rule === undefined) return PolicyGate.#applyChannelPolicy(policy, context.channel, tool, mutating);
    if (!isRule(rule)) {
      return this.#providerFailed(context, tool, new Error('it returned a malformed rule (need effect, requiresScopes, description)'));
    }
    if (rule.requiresScopes.length > 0 && !context.hasAnyScope(rule.requiresScopes)) {
      return AuthorizationResult.deny(
        `Policy rule ${ruleLabel(rule)} for tool '${tool.name}' requires one of these scopes: ${rule.requiresScopes.join(', ')} ` +
          `— context has: ${joinScopes(context.scopes)}.`,
        'rule_provider',
      );
    }
    // Only the exact effect 'allow' allows; 'DENY', 'deny' or a typo all deny (fail-closed).
    if (rule.effect === 'allow') return AuthorizationResult.allow();
    const description = typeof rule.description === 'string' && rule.description.trim() !== '' ? rule.description : null;
    return AuthorizationResult.deny(
      description ??
        `Denied by policy rule ${ruleLabel(rule)} for tool '${tool.name}' on channel '${context.channel}' ` +
          `(principal: ${context.principal ?? '(none)'}).`,
      'rule_provider',
    );
  }

  static #applyChannelPolicy(policy: ChannelPolicy, channel: string, tool: PolicySubject, mutating: boolean): AuthorizationResult {
    if (policy.allow_all === true) return AuthorizationResult.allow();
    if (policy.block_mutating === true && mutating) {
      const reason =
        typeof tool.mutating === 'function'
          ? `Call to '${tool.name}' is blocked on channel '${channel}': its arguments make it mutating (block_mutating policy).`
          : `Mutating tool '${tool.name}' is blocked on channel '${channel}' (block_mutating policy).`;
      return AuthorizationResult.deny(reason, 'block_mutating');
    }
    return AuthorizationResult.allow();
  }

  #providerFailed(context: ToolContext, tool: PolicySubject, error: unknown): AuthorizationResult {
    const reason =
      `Policy rule provider failed for tool '${tool.name}' on channel '${context.channel}' — denying ` +
      `(fail-closed): ${describeError(error)}`;
    this.#write('error', { tool: tool.name, channel: context.channel, request_id: context.requestId, error }, `PolicyGate: ${reason}`);
    return AuthorizationResult.deny(reason, 'rule_provider_failed');
  }

  #warnUnknownChannel(channel: string): void {
    this.#write(
      'warn',
      { channel },
      `PolicyGate: channel '${channel}' is not a registered channel — falling back to a FAIL-CLOSED policy (require_auth, no ` +
        `allow_all). An unregistered channel is treated as untrusted, never as the laxest policy. Register it explicitly via ` +
        `setChannelPolicy() to define its rules. Why Milpa fails closed on unknown channels: ` +
        `https://academy.milpa.lat/learn/fundamentos/politicas-explicitas`,
    );
  }

  #write(level: 'warn' | 'error', context: Record<string, unknown>, message: string): void {
    try {
      if (this.#logger.isLevelEnabled?.(level) === false) return;
      swallowRejection(this.#logger[level](context, message));
    } catch {
      // A broken logger must never turn a decision into an exception.
    }
  }
}
