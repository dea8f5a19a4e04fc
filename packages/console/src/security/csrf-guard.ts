import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const NONCE = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * Signed double-submit CSRF tokens: the browser holds a random nonce in an `HttpOnly`,
 * `SameSite=Strict` cookie, and every form carries `HMAC(secret, nonce, principal)`. A forged
 * form from another site knows neither the nonce nor the secret, and a token taken from one
 * approver's page is worthless for another approver.
 */
export class CsrfGuard {
  readonly #secret: Buffer;

  /** A guard keyed with `secret` (share it between processes that serve the same page). */
  constructor(secret: string | Uint8Array | null) {
    this.#secret = secret === null ? randomBytes(32) : Buffer.from(secret);
    if (this.#secret.length < 16) throw new RangeError('The console secret must be at least 16 bytes long.');
  }

  /** A fresh nonce for the cookie. */
  newNonce(): string {
    return randomBytes(24).toString('base64url');
  }

  /** True when `nonce` has the shape of one this guard issues. */
  isNonce(nonce: string | undefined): nonce is string {
    return nonce !== undefined && NONCE.test(nonce);
  }

  /** The token forms of `principal` carry, for the browser holding `nonce`. */
  tokenFor(nonce: string, principal: string): string {
    return createHmac('sha256', this.#secret).update(`csrf\u0000${nonce}\u0000${principal}`).digest('base64url');
  }

  /** True when `token` is the one issued for this nonce and principal (compared in constant time). */
  verify(nonce: string | undefined, principal: string, token: unknown): boolean {
    if (!this.isNonce(nonce) || typeof token !== 'string') return false;
    const expected = Buffer.from(this.tokenFor(nonce, principal));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
