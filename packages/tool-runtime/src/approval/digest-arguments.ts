import { createHash } from 'node:crypto';

/** The value in a canonical form: object keys sorted at every depth, so key order never changes the digest. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = canonical((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

/**
 * A SHA-256 digest (64 hex characters) of a call's validated arguments, independent of key order:
 * a held call is bound to it, so a resume that presents other arguments is refused.
 *
 * @example
 * digestArguments({ id: 7, force: true }) === digestArguments({ force: true, id: 7 }); // true
 */
export function digestArguments(args: Readonly<Record<string, unknown>>): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(args)))
    .digest('hex');
}
