import { MilpaError } from '@milpa/core';

/**
 * One reason a value failed validation, addressed by its path inside the arguments.
 *
 * @example
 * { path: 'user.email', message: 'user.email: Expected string, got integer' }
 */
export interface ValidationIssue {
  /** Where the problem is: `''` for the arguments themselves, `'name'`, `'user.email'`, `'tags[0]'`. */
  readonly path: string;
  /**
   * The complete human-readable message, exactly as it appears in {@link ValidationResult.errors}
   * (e.g. `Missing required field: name`, `user.email: Expected string, got integer`), so an issue
   * can be shown on its own without the path being re-attached.
   */
  readonly message: string;
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * The outcome of validating one set of arguments against a schema: valid, or the list of problems.
 * Instances are frozen; the valid outcome is the shared {@link ValidationResult.VALID} singleton so
 * the common path allocates nothing.
 *
 * @example
 * const result = validator.validate({ age: 'x' }, schema);
 * if (!result.valid) console.log(result.getErrorMessage()); // 'Missing required field: name; age: Expected integer, got string'
 */
export class ValidationResult {
  /** True when the arguments satisfy the schema. */
  readonly valid: boolean;
  /** The formatted messages, in report order (required, then declared properties, then unknown properties). */
  readonly errors: readonly string[];
  /** The same problems with their paths, for callers (and models) that correct arguments field by field. */
  readonly issues: readonly ValidationIssue[];

  /** The shared valid outcome. */
  static readonly VALID: ValidationResult = new ValidationResult(true, EMPTY);

  private constructor(valid: boolean, issues: readonly ValidationIssue[]) {
    this.valid = valid;
    this.issues = issues;
    this.errors = issues.length === 0 ? EMPTY : Object.freeze(issues.map((issue) => issue.message));
    Object.freeze(this);
  }

  /**
   * An invalid outcome carrying `issues` (copied and frozen).
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `issues` is empty or an issue lacks a string path or
   *   message: an invalid result must always say why.
   */
  static invalid(issues: readonly ValidationIssue[]): ValidationResult {
    if (!Array.isArray(issues) || issues.length === 0) {
      throw new MilpaError('ValidationResult.invalid() needs at least one issue.', { code: 'INVALID_ARGUMENT' });
    }
    const copies = issues.map((issue: unknown) => {
      const candidate = issue as Partial<ValidationIssue> | null;
      if (typeof candidate?.path !== 'string' || typeof candidate.message !== 'string') {
        throw new MilpaError('Each validation issue needs a string path and a string message.', { code: 'INVALID_ARGUMENT' });
      }
      return Object.freeze({ path: candidate.path, message: candidate.message });
    });
    return new ValidationResult(false, Object.freeze(copies));
  }

  /** The messages joined with `'; '` (empty for a valid result): the text of `ToolResult.error`. */
  getErrorMessage(): string {
    return this.errors.join('; ');
  }
}
