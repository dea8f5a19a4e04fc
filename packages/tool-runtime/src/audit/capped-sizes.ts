import type { ResultPartSizes } from './tool-audit-record.js';

const PARTS = ['data', 'message', 'error', 'meta'] as const;

/**
 * The sizes of a capped result's parts before the cut, read from its `meta.original_sizes`, or
 * undefined for a result the cap did not cut (or sizes that are not four whole numbers).
 */
export function cappedSizesOf(meta: Readonly<Record<string, unknown>>): ResultPartSizes | undefined {
  if (meta['truncated'] !== true) return undefined;
  const sizes = meta['original_sizes'];
  if (typeof sizes !== 'object' || sizes === null) return undefined;
  const record = sizes as Record<string, unknown>;
  for (const part of PARTS) {
    const size = record[part];
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
  }
  return Object.freeze({
    data: record['data'],
    message: record['message'],
    error: record['error'],
    meta: record['meta'],
  } as ResultPartSizes);
}
