/** A host-defined authorization rule (e.g. a database row). */
export interface PolicyRule {
  /** The rule's id, named in denial messages. */
  readonly id: string | number | null;
  /** `'allow'` allows at once; anything else (`'deny'`, a typo) denies — fail-closed. */
  readonly effect: string;
  /** Scopes of which the caller needs one, even for an `allow` rule; empty for none. */
  readonly requiresScopes: readonly string[];
  /** Used verbatim as the denial reason when set. */
  readonly description: string | null;
}

/**
 * The host seam for rule-based authorization, consulted after `require_auth` and the tool's scope
 * check. Returning null falls through to the channel policy; throwing denies the call (fail-closed).
 */
export interface PolicyRuleProvider {
  /**
   * The rule that applies to this call, or null when none does. `mutating` is whether this call
   * mutates: for a tool whose `mutating` is a function, its answer for the call's arguments; when
   * there are none yet (listing the tools a caller may call), such a tool is asked about as not
   * mutating, since some arguments may make it so.
   */
  findMatchingRule(
    channel: string,
    principal: string | null,
    toolName: string,
    mutating: boolean,
  ): PolicyRule | null | Promise<PolicyRule | null>;
}
