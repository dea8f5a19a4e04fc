import { MilpaError } from '../errors/milpa-error.js';

/**
 * The text forms of {@link generateRandomId}:
 * - `hex`: 32 lowercase hex characters, all 128 bits random.
 * - `uuid`: an RFC 9562 version 4 UUID (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`), 122 bits random.
 */
export type RandomIdFormat = 'hex' | 'uuid';

const HEX_PAIRS: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const ID_BYTES = 16;

// One Web Crypto call costs about as much as fifteen whole ids, so random bytes are fetched 4 KiB
// at a time (as Node does for its own randomUUID) and every id takes 16 of them. Each byte is used
// once; the pool is private to this module and never leaves it except as ids.
const POOL = new Uint8Array(4096);
let offset = POOL.length;

function hexOf(from: number, to: number): string {
  let text = '';
  for (let index = from; index < to; index++) text += HEX_PAIRS[POOL[index] as number];
  // `+=` leaves a chain of one piece per byte (about 360 bytes for a 32-character id in V8); reading
  // a character joins it into one string (about 60 bytes). Ids are kept for long (store keys, the
  // owners of idempotency keys, request ids in held calls), so they are kept joined.
  text.charCodeAt(0);
  return text;
}

/**
 * A fresh, unguessable id from the platform's cryptographic random source (Web Crypto
 * `getRandomValues`, available on Node, Deno, Bun and browsers without an import). Every Milpa id
 * comes from here: request ids and confirmation tokens (`hex`), verification request ids and MCP
 * session ids (`uuid`). It is public so that stores and transports built on `@milpa/core` mint
 * their ids and tokens the same way.
 *
 * @param format `hex` (the default, 128 random bits) or `uuid` (version 4, 122 random bits).
 * @throws MilpaError `INVALID_ARGUMENT` for any other format.
 *
 * @example
 * generateRandomId();       // '9f1c0d3e6b2a4f5e8d7c6b5a49382716'
 * generateRandomId('uuid'); // '3b241101-e2bb-4255-8caf-4136c566a962'
 */
export function generateRandomId(format: RandomIdFormat = 'hex'): string {
  if (format !== 'hex' && format !== 'uuid') {
    throw new MilpaError(`Random id format must be 'hex' or 'uuid', got ${String(format)}.`, { code: 'INVALID_ARGUMENT' });
  }
  if (offset === POOL.length) {
    globalThis.crypto.getRandomValues(POOL);
    offset = 0;
  }
  const start = offset;
  offset += ID_BYTES;
  if (format === 'hex') return hexOf(start, start + ID_BYTES);
  // Version 4 in the high nibble of byte 6, the RFC variant (10xx) in the high bits of byte 8.
  POOL[start + 6] = ((POOL[start + 6] as number) & 0x0f) | 0x40;
  POOL[start + 8] = ((POOL[start + 8] as number) & 0x3f) | 0x80;
  return (
    `${hexOf(start, start + 4)}-${hexOf(start + 4, start + 6)}-${hexOf(start + 6, start + 8)}-` +
    `${hexOf(start + 8, start + 10)}-${hexOf(start + 10, start + 16)}`
  );
}
