import type { ToolDenialReason } from '@milpa/core';

/**
 * The verdict of `PolicyGate.authorize()`: allowed, or denied with a reason that names the check that
 * failed (the reason becomes the `FORBIDDEN` error message).
 *
 * @example
 * const verdict = gate.authorize(context, tool);
 * if (!verdict.allowed) console.log(verdict.reason); // "channel 'mcp' requires an authenticated principal …"
 */
export class AuthorizationResult {
  /** Whether the call may proceed. */
  readonly allowed: boolean;
  /** Why it was denied; null when allowed. */
  readonly reason: string | null;
  /** Which check denied, from a closed set (dispatched in `tool.denied`); null when allowed. */
  readonly denial: ToolDenialReason | null;

  static readonly #ALLOWED = new AuthorizationResult(true, null, null);

  private constructor(allowed: boolean, reason: string | null, denial: ToolDenialReason | null) {
    this.allowed = allowed;
    this.reason = reason;
    this.denial = denial;
    Object.freeze(this);
  }

  /** The shared (frozen) allowed verdict. */
  static allow(): AuthorizationResult {
    return AuthorizationResult.#ALLOWED;
  }

  /**
   * A denial with `reason` (the caller's message) and the check that denied (default
   * `rule_provider`: a host decision).
   */
  static deny(reason: string, denial: ToolDenialReason = 'rule_provider'): AuthorizationResult {
    return new AuthorizationResult(false, String(reason), denial);
  }
}
