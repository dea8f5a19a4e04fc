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

  static readonly #ALLOWED = new AuthorizationResult(true, null);

  private constructor(allowed: boolean, reason: string | null) {
    this.allowed = allowed;
    this.reason = reason;
    Object.freeze(this);
  }

  /** The shared (frozen) allowed verdict. */
  static allow(): AuthorizationResult {
    return AuthorizationResult.#ALLOWED;
  }

  /** A denial with `reason`. */
  static deny(reason: string): AuthorizationResult {
    return new AuthorizationResult(false, String(reason));
  }
}
