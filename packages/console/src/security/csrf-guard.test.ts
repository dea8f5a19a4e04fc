import { describe, expect, it } from 'vitest';
import { CsrfGuard } from './csrf-guard.js';

describe('CsrfGuard', () => {
  it('accepts the token issued for a nonce and principal, and nothing else', () => {
    const guard = new CsrfGuard('a-secret-of-sixteen-bytes');
    const nonce = guard.newNonce();
    const token = guard.tokenFor(nonce, 'user:ana');
    expect(guard.verify(nonce, 'user:ana', token)).toBe(true);
    expect(guard.verify(nonce, 'user:luis', token)).toBe(false);
    expect(guard.verify(guard.newNonce(), 'user:ana', token)).toBe(false);
    expect(guard.verify(undefined, 'user:ana', token)).toBe(false);
    expect(guard.verify(nonce, 'user:ana', undefined)).toBe(false);
    expect(guard.verify(nonce, 'user:ana', `${token}x`)).toBe(false);
  });

  it('accepts tokens across guards only when they share the secret', () => {
    const one = new CsrfGuard('shared-secret-0123456789');
    const nonce = one.newNonce();
    expect(new CsrfGuard('shared-secret-0123456789').verify(nonce, 'user:ana', one.tokenFor(nonce, 'user:ana'))).toBe(true);
    expect(new CsrfGuard(null).verify(nonce, 'user:ana', one.tokenFor(nonce, 'user:ana'))).toBe(false);
  });

  it('refuses a secret shorter than 16 bytes', () => {
    expect(() => new CsrfGuard('short')).toThrow('at least 16 bytes');
  });
});
