import type { ToolArgs, ToolResult } from '@milpa/core';
import { failure } from './tool-envelope.js';

/**
 * Refuses arguments the tool does not know (`UNKNOWN_ARGUMENT`), naming them and the allowed ones;
 * null when every key is allowed. A schema with `additionalProperties: false` does this at
 * validation; this check also covers tools whose schema cannot say it.
 */
export function rejectUnknownArguments(args: ToolArgs, allowed: readonly string[]): ToolResult<null> | null {
  const known = new Set(allowed);
  const unknown = Object.keys(args).filter((key) => !known.has(key));
  if (unknown.length === 0) return null;
  const names = unknown.map((key) => `'${key}'`).join(', ');
  return failure(
    'UNKNOWN_ARGUMENT',
    `Unknown argument${unknown.length === 1 ? '' : 's'} ${names}. Allowed: ${allowed.length === 0 ? '(none)' : allowed.join(', ')}.`,
    { unknown },
  );
}

/** Bounds of {@link validatePaging}. */
export interface PagingBounds {
  /** The largest accepted `limit`. */
  readonly maxLimit: number;
  /** The largest accepted `offset`. */
  readonly maxOffset: number;
  /** The smallest accepted `offset` (0 for item offsets, 1 for line numbers); default 0. */
  readonly minOffset?: number;
}

/**
 * Checks `limit` and `offset` when present: whole numbers within bounds, else `INVALID_LIMIT` /
 * `INVALID_OFFSET` with the accepted range; null when paging is in range.
 */
export function validatePaging(args: ToolArgs, bounds: PagingBounds): ToolResult<null> | null {
  const minOffset = bounds.minOffset ?? 0;
  const limit = args['limit'];
  if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > bounds.maxLimit)) {
    return failure('INVALID_LIMIT', `limit must be a whole number from 1 to ${bounds.maxLimit}, got ${JSON.stringify(limit)}.`);
  }
  const offset = args['offset'];
  if (offset !== undefined && (!Number.isInteger(offset) || (offset as number) < minOffset || (offset as number) > bounds.maxOffset)) {
    return failure(
      'INVALID_OFFSET',
      `offset must be a whole number from ${minOffset} to ${bounds.maxOffset}, got ${JSON.stringify(offset)}.`,
    );
  }
  return null;
}
