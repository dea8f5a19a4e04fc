/**
 * Why authorization or the rate limiter refused a call, as dispatched in `tool.denied`: a closed
 * set, separate from the reason codes of invocation rules (`tool.invocation_denied`).
 */
export type ToolDenialReason =
  | 'unknown_channel'
  | 'require_auth'
  | 'missing_scope'
  | 'rule_provider'
  | 'rule_provider_failed'
  | 'block_mutating'
  | 'rate_limited'
  | 'approval_denied';

const REASONS: readonly ToolDenialReason[] = Object.freeze([
  'unknown_channel',
  'require_auth',
  'missing_scope',
  'rule_provider',
  'rule_provider_failed',
  'block_mutating',
  'rate_limited',
  'approval_denied',
] as const);

/**
 * The closed set of {@link ToolDenialReason} values.
 *
 * @example
 * ToolDenialReason.isToolDenialReason('missing_scope'); // true
 */
export const ToolDenialReason = Object.freeze({
  /** The channel has no registered policy, and its fail-closed policy requires a principal the call lacks. */
  UNKNOWN_CHANNEL: 'unknown_channel',
  /** The channel requires an authenticated principal and the call has none. */
  REQUIRE_AUTH: 'require_auth',
  /** The caller holds none of the tool's scopes. */
  MISSING_SCOPE: 'missing_scope',
  /** A rule of the host's rule provider denied the call (its effect, or its own scopes). */
  RULE_PROVIDER: 'rule_provider',
  /** The host's rule provider threw, rejected or answered a malformed rule (fail-closed). */
  RULE_PROVIDER_FAILED: 'rule_provider_failed',
  /** The channel blocks mutating tools. */
  BLOCK_MUTATING: 'block_mutating',
  /** The caller's rate budget is spent. */
  RATE_LIMITED: 'rate_limited',
  /** An approval gate refused the call (its verdict, a failure, or an approver's rejection). */
  APPROVAL_DENIED: 'approval_denied',
  /** Every reason. */
  values: REASONS,
  /** True when `value` is one of the reasons. */
  isToolDenialReason(value: unknown): value is ToolDenialReason {
    return typeof value === 'string' && (REASONS as readonly string[]).includes(value);
  },
} as const);
