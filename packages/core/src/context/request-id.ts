// Built once: a context is created for every call, so the id must cost one random fill and no
// per-byte formatting.
const HEX_PAIRS: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const BYTES = new Uint8Array(16);

/**
 * A fresh request id: 32 lowercase hex characters from 16 random bytes.
 * Uses the Web Crypto global, so it runs on Node, Deno, Bun and browsers alike.
 *
 * @example
 * generateRequestId(); // '9f1c0d3e6b2a4f5e8d7c6b5a49382716'
 */
export function generateRequestId(): string {
  globalThis.crypto.getRandomValues(BYTES);
  let id = '';
  for (let index = 0; index < 16; index++) id += HEX_PAIRS[BYTES[index] as number];
  return id;
}
