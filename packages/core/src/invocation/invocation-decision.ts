import { MilpaError } from '../errors/milpa-error.js';
import { isInvocationCode } from './invocation-code.js';

/**
 * What an invocation rule answers: {@link InvocationDecision.allow} lets the call go on to the next
 * rule, {@link InvocationDecision.deny} refuses it with a stable reason code. A denial never
 * carries a free-text message, so it can never leak an argument or an exception's text.
 *
 * @example
 * evaluate({ history }) {
 *   const deletions = history.count({ tool: 'delete_note', outcome: 'executed' });
 *   return deletions >= 3 ? InvocationDecision.deny('too_many_deletions') : InvocationDecision.allow();
 * }
 */
export class InvocationDecision {
  /** True when the rule lets the call go on. */
  readonly allowed: boolean;
  /** The denial's reason code; null when allowed. */
  readonly reason: string | null;

  static readonly #ALLOW = new InvocationDecision(true, null);

  private constructor(allowed: boolean, reason: string | null) {
    this.allowed = allowed;
    this.reason = reason;
    Object.freeze(this);
  }

  /** The (shared, frozen) decision that lets the call go on. */
  static allow(): InvocationDecision {
    return InvocationDecision.#ALLOW;
  }

  /**
   * A denial with `reasonCode`, which follows the identifier grammar (`[a-z][a-z0-9_.-]*`, at most
   * 64 characters), e.g. `outside_site`.
   * @throws MilpaError `INVALID_ARGUMENT` for a reason code outside the grammar; a rule that throws
   *   refuses its call as `rule_failed`.
   */
  static deny(reasonCode: string): InvocationDecision {
    if (!isInvocationCode(reasonCode)) {
      throw new MilpaError(
        'InvocationDecision.deny() needs a reason code of lower-case letters, ' +
          'digits, _, . or -, starting with a letter, at most 64 characters.',
        {
          code: 'INVALID_ARGUMENT',
        },
      );
    }
    return new InvocationDecision(false, reasonCode);
  }

  /**
   * True when `value` is a well-formed decision: allowed with no reason, or denied with a valid
   * reason code. Checked by shape, so a decision built by another copy of this package counts.
   */
  static isInvocationDecision(value: unknown): value is InvocationDecision {
    if (typeof value !== 'object' || value === null) return false;
    const { allowed, reason } = value as { allowed?: unknown; reason?: unknown };
    if (allowed === true) return reason === null || reason === undefined;
    return allowed === false && isInvocationCode(reason);
  }
}
