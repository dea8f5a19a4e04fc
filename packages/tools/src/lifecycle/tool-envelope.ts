import { ToolResult, type ToolResultMeta } from '@milpa/core';

/**
 * A successful result: `data` for the model, `meta` about it (sizes, paging, the path read), and
 * `warnings` (truncation, skipped files) under `meta.warnings`, always present.
 *
 * @example return success({ content }, { path: 'src/a.ts', next_offset: 41 }, ['Output truncated at 16384 bytes.']);
 */
export function success<T>(data: T, meta: ToolResultMeta = {}, warnings: readonly string[] = []): ToolResult<T> {
  return ToolResult.success(data, null, { ...meta, warnings: [...warnings] });
}

/**
 * A failed result with a code the model can act on (in `meta.code`, as every refusal of the
 * pipeline), the message, and optional details in `meta`.
 *
 * @example return failure('UNKNOWN_ARGUMENT', "Unknown argument 'pth'. Allowed: path, offset, limit.");
 */
export function failure(code: string, message: string, details: ToolResultMeta = {}): ToolResult<null> {
  return ToolResult.error(message, null, { ...details, code, type: 'error', warnings: [] });
}
