import { generateRandomId } from '../ids/generate-random-id.js';

/**
 * A fresh request id: 32 lowercase hex characters (128 random bits) from
 * {@link generateRandomId}. Uses the Web Crypto global, so it runs on Node, Deno, Bun and
 * browsers alike.
 *
 * @example
 * generateRequestId(); // '9f1c0d3e6b2a4f5e8d7c6b5a49382716'
 */
export function generateRequestId(): string {
  return generateRandomId('hex');
}
