import type { ChannelPolicy } from '../policy/channel-policy.js';

/**
 * The read-only view of a policy gate that {@link InvocationPlanBuilder} needs. The runtime's
 * `PolicyGate` satisfies it structurally; a test can pass a plain object.
 */
export interface InspectablePolicy {
  /** The effective policy of `channel` (the fail-closed policy for an unregistered channel). */
  channelPolicy(channel: string): ChannelPolicy;
  /** Whether a policy rule provider is consulted by authorize. */
  hasRuleProvider(): boolean;
  /**
   * Whether `channel` has a policy of its own. Optional: without it, a channel is taken as
   * unregistered when `channelPolicy()` returns the shared `FAIL_CLOSED_CHANNEL_POLICY` object.
   */
  hasChannelPolicy?(channel: string): boolean;
}
