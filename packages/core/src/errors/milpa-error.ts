const MILPA_ERROR_BRAND = Symbol.for('milpa.error');

/** Options accepted by {@link MilpaError} and its subclasses. */
export interface MilpaErrorOptions {
  /** A stable, machine-readable code such as `INVALID_MODE` or `TOOL_ALREADY_REGISTERED`. */
  readonly code?: string;
  /** The underlying error, when this one wraps another. */
  readonly cause?: unknown;
}

/**
 * Base class of every error Milpa throws. Milpa only throws for programmer or configuration faults
 * (a duplicate registration, an invalid schema, an unknown mode); expected outcomes of a call are
 * `ToolResult` values, never exceptions.
 *
 * Recognise it with {@link MilpaError.isInstance}, which works across duplicated copies of
 * `@milpa/core` (it checks a `Symbol.for` brand rather than the prototype chain).
 *
 * @example
 * try {
 *   new ToolContext({ mode: 'dry-run' as never });
 * } catch (error) {
 *   if (MilpaError.isInstance(error)) console.log(error.code); // 'INVALID_MODE'
 * }
 */
export class MilpaError extends Error {
  /** A stable, machine-readable code for this fault. */
  readonly code: string;

  /** A fault with a human-readable `message`, a `code` (default `MILPA_ERROR`) and an optional `cause`. */
  constructor(message: string, options: MilpaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? 'MILPA_ERROR';
  }

  /** True when `value` is a `MilpaError` (or subclass) from any copy of `@milpa/core`. */
  static isInstance(value: unknown): value is MilpaError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MILPA_ERROR_BRAND] === true;
  }
}

Object.defineProperty(MilpaError.prototype, MILPA_ERROR_BRAND, { value: true });
