/**
 * The policy of one channel. Keys are snake_case, as on the wire and in configuration files; every
 * other key is ignored.
 */
export interface ChannelPolicy {
  /** Skips only the final channel-policy step (`block_mutating`); never require_auth, scopes, rules or confirmation. */
  readonly allow_all?: boolean;
  /** Denies callers without a principal (null or `''`). */
  readonly require_auth?: boolean;
  /** Denies mutating tools on this channel. */
  readonly block_mutating?: boolean;
  /** Asks for a confirmation round trip before any mutating tool runs. */
  readonly require_confirmation_for_mutating?: boolean;
}

/**
 * The built-in channel policies a `PolicyGate` starts with: `cli` trusts the local operator, `mcp`
 * and `web` need an authenticated principal, `telegram` confirms mutating tools. A host replaces a
 * channel's policy wholesale with the `channelPolicies` option or `setChannelPolicy()`.
 *
 * @example
 * const gate = new PolicyGate({ channelPolicies: { web: { ...DEFAULT_CHANNEL_POLICIES['web'], block_mutating: true } } });
 */
export const DEFAULT_CHANNEL_POLICIES: Readonly<Record<string, ChannelPolicy>> = Object.freeze({
  cli: Object.freeze({ allow_all: true }),
  mcp: Object.freeze({ allow_all: false, require_auth: true }),
  web: Object.freeze({ allow_all: false, require_auth: true }),
  telegram: Object.freeze({ allow_all: false, block_mutating: false, require_confirmation_for_mutating: true }),
});

/** The fail-closed policy an unregistered channel gets: authentication required, nothing else. */
export const FAIL_CLOSED_CHANNEL_POLICY: ChannelPolicy = Object.freeze({ require_auth: true });
