import { MilpaError } from '@milpa/core';

/**
 * The console's `basePath` as the router compares it: starting and ending with `/` (default `/`).
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a path that does not start with `/` or holds `?`, `#` or blanks.
 * @example
 * normalizeBasePath('/approvals'); // '/approvals/'
 */
export function normalizeBasePath(basePath: string | undefined): string {
  const base = basePath ?? '/';
  if (typeof base !== 'string' || !base.startsWith('/') || /[?#\s]/.test(base)) {
    throw new MilpaError(`createApprovalConsole basePath must be a path starting with '/', got ${String(basePath)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return base.endsWith('/') ? base : `${base}/`;
}
