import { MilpaError } from '../errors/milpa-error.js';
import { isInvocationCode } from './invocation-code.js';

/** The most characters an {@link InvocationTarget} id may have. */
export const INVOCATION_TARGET_ID_MAX_LENGTH = 256;

/**
 * What a call acts on, as a reference: an authoritative kind and identifier (`{ kind: 'note', id:
 * '42' }`). Targets are kept in the run's invocation history, so they hold identifiers only —
 * never credentials or document content.
 */
export interface InvocationTarget {
  /** The kind of thing acted on, in the identifier grammar (`note`, `page`, `order`). */
  readonly kind: string;
  /** Its identifier, 1 to 256 characters. */
  readonly id: string;
}

/** True when `value` is a well-formed target: a code-grammar `kind` and a non-empty string `id` of at most 256 characters. */
export function isInvocationTarget(value: unknown): value is InvocationTarget {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, id } = value as { kind?: unknown; id?: unknown };
  return isInvocationCode(kind) && typeof id === 'string' && id.length > 0 && id.length <= INVOCATION_TARGET_ID_MAX_LENGTH;
}

/**
 * A frozen target reference; a numeric id is written as a decimal string.
 * @throws MilpaError `INVALID_ARGUMENT` for a kind outside the identifier grammar or an id that is
 *   empty, longer than 256 characters, or not a string or finite number.
 *
 * @example
 * invocationTarget('note', 42); // { kind: 'note', id: '42' }
 */
export function invocationTarget(kind: string, id: string | number): InvocationTarget {
  const text = typeof id === 'number' && Number.isFinite(id) ? String(id) : id;
  const target = { kind, id: text };
  if (!isInvocationTarget(target)) {
    throw new MilpaError(
      'An invocation target needs a kind of lower-case letters, digits, _, . or - (starting with a letter, at most 64 ' +
        'characters) and an id of 1 to 256 characters.',
      {
        code: 'INVALID_ARGUMENT',
      },
    );
  }
  return Object.freeze(target);
}
