import { MilpaError } from '@milpa/core';

/**
 * Formats a confirmation expiry as the wire carries it in `expires_at`: ISO-8601 in UTC with seconds
 * and a numeric offset, e.g. `2026-08-15T14:08:11+00:00`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for an invalid date.
 * @example formatExpiresAt(token.expiresAt); // '2026-08-15T14:08:11+00:00'
 */
export function formatExpiresAt(date: Date): string {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new MilpaError('formatExpiresAt() needs a valid Date.', { code: 'INVALID_ARGUMENT' });
  }
  return `${date.toISOString().slice(0, 19)}+00:00`;
}
