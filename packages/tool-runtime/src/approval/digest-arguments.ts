import { hash } from 'node:crypto';
import { canonicalJson } from '@milpa/core/kit';

/**
 * A SHA-256 digest (64 hex characters) of a call's validated arguments, independent of key order:
 * a held call is bound to it, so a resume that presents other arguments is refused. A `__proto__`
 * key counts as data like any other key.
 *
 * @throws TypeError when the arguments cannot be written as JSON.
 *
 * @example
 * digestArguments({ id: 7, force: true }) === digestArguments({ force: true, id: 7 }); // true
 */
export function digestArguments(args: Readonly<Record<string, unknown>>): string {
  const text = canonicalJson(args);
  if (text === null) throw new TypeError('digestArguments: the arguments are not JSON (a cycle, a BigInt or a function).');
  // The one-shot hash: a Hash object per digest costs several times the hashing of small arguments.
  return hash('sha256', text, 'hex');
}
