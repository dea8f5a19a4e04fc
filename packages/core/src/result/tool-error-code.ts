/**
 * The closed set of error codes a `ToolResult` carries in `meta.code`. Each value equals its key.
 *
 * The seed's nine codes plus `CONFLICT` (a state conflict, such as resolving an already resolved
 * verification request).
 */
export const ToolErrorCode = {
  TOOL_NOT_FOUND: 'TOOL_NOT_FOUND',
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  CONFIRMATION_REQUIRED: 'CONFIRMATION_REQUIRED',
  TIMEOUT: 'TIMEOUT',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  RATE_LIMITED: 'RATE_LIMITED',
  CONFLICT: 'CONFLICT',
} as const;

/** One of the {@link ToolErrorCode} values. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(ToolErrorCode));

/** True when `value` is one of the {@link ToolErrorCode} strings. */
export function isToolErrorCode(value: unknown): value is ToolErrorCode {
  return typeof value === 'string' && CODES.has(value);
}
