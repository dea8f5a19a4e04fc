/**
 * A fresh request id: 32 lowercase hex characters from 16 random bytes.
 * Uses the Web Crypto global, so it runs on Node, Deno, Bun and browsers alike.
 */
export function generateRequestId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (const byte of bytes) id += (byte < 16 ? '0' : '') + byte.toString(16);
  return id;
}
