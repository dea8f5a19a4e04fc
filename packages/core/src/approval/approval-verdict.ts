import { MilpaError } from '../errors/milpa-error.js';

/** What an approval gate decided about one call: let it run, refuse it, or hold it for a person. */
export type ApprovalVerdictKind = 'allow' | 'deny' | 'suspend';

/** Options of {@link ApprovalVerdict.suspend}. */
export interface ApprovalSuspendOptions {
  /** When the held call stops being resumable; default the registry's approval TTL. */
  readonly expiresAt?: Date;
  /** A short text for the caller, e.g. who is asked to approve; default a generic one. */
  readonly message?: string;
}

const MAX_REASON_LENGTH = 500;

/**
 * What an {@link ApprovalGate} answers for one call: {@link ApprovalVerdict.allow} lets it run,
 * {@link ApprovalVerdict.deny} refuses it with a reason the caller reads, and
 * {@link ApprovalVerdict.suspend} holds it until someone else grants or rejects it.
 *
 * @example
 * check({ toolName, arguments: args }) {
 *   if (toolName === 'drop_table') return ApprovalVerdict.deny('Dropping tables is never allowed here.');
 *   return ApprovalVerdict.allow();
 * }
 */
export class ApprovalVerdict {
  /** Which of the three answers this is. */
  readonly kind: ApprovalVerdictKind;
  /** The denial's reason; null unless denied. */
  readonly reason: string | null;
  /** When a suspended call stops being resumable; null for the registry's default (or unless suspended). */
  readonly expiresAt: Date | null;
  /** A suspension's text for the caller; null for the default (or unless suspended). */
  readonly message: string | null;

  static readonly #ALLOW = new ApprovalVerdict('allow', null, null, null);

  private constructor(kind: ApprovalVerdictKind, reason: string | null, expiresAt: Date | null, message: string | null) {
    this.kind = kind;
    this.reason = reason;
    this.expiresAt = expiresAt;
    this.message = message;
    Object.freeze(this);
  }

  /** The (shared, frozen) verdict that lets the call run. */
  static allow(): ApprovalVerdict {
    return ApprovalVerdict.#ALLOW;
  }

  /**
   * A refusal the caller reads as the result's message, e.g. `"Deleting notes needs a manager."`.
   * @throws MilpaError `INVALID_ARGUMENT` for a reason that is not a non-blank string of at most 500 characters.
   */
  static deny(reason: string): ApprovalVerdict {
    if (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_REASON_LENGTH) {
      throw new MilpaError(`ApprovalVerdict.deny() needs a non-blank reason of at most ${MAX_REASON_LENGTH} characters.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    return new ApprovalVerdict('deny', reason.trim(), null, null);
  }

  /**
   * Holds the call: the caller gets a pending result with an approval id to resume with once
   * someone else has granted it. Only a gate that can tell the decision later (it implements
   * `getResolution`) may suspend; from any other gate a suspension is a denial.
   * @throws MilpaError `INVALID_ARGUMENT` for an `expiresAt` that is not a valid Date, or a message
   *   that is not a non-blank string of at most 500 characters.
   */
  static suspend(options: ApprovalSuspendOptions = {}): ApprovalVerdict {
    const { expiresAt, message } = options;
    if (expiresAt !== undefined && !(expiresAt instanceof Date && Number.isFinite(expiresAt.getTime()))) {
      throw new MilpaError('ApprovalVerdict.suspend() needs expiresAt to be a valid Date.', { code: 'INVALID_ARGUMENT' });
    }
    if (message !== undefined && (typeof message !== 'string' || message.trim() === '' || message.length > MAX_REASON_LENGTH)) {
      throw new MilpaError(
        `ApprovalVerdict.suspend() needs a message that is a non-blank string of at most ${MAX_REASON_LENGTH} characters.`,
        { code: 'INVALID_ARGUMENT' },
      );
    }
    return new ApprovalVerdict('suspend', null, expiresAt === undefined ? null : new Date(expiresAt.getTime()), message?.trim() ?? null);
  }

  /**
   * True when `value` is a well-formed verdict: allow, deny with a non-blank reason, or suspend with
   * a valid or null expiry. Checked by shape, so a verdict built by another copy of this package counts.
   */
  static isApprovalVerdict(value: unknown): value is ApprovalVerdict {
    if (typeof value !== 'object' || value === null) return false;
    const { kind, reason, expiresAt, message } = value as { kind?: unknown; reason?: unknown; expiresAt?: unknown; message?: unknown };
    if (kind === 'allow') return true;
    if (kind === 'deny') return typeof reason === 'string' && reason.trim() !== '' && reason.length <= MAX_REASON_LENGTH;
    if (kind !== 'suspend') return false;
    const validExpiry =
      expiresAt === null || expiresAt === undefined || (expiresAt instanceof Date && Number.isFinite(expiresAt.getTime()));
    const validMessage = message === null || message === undefined || (typeof message === 'string' && message.length <= MAX_REASON_LENGTH);
    return validExpiry && validMessage;
  }
}
