import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { tokenAuthentication } from './token-authentication.js';

const ANA = 'ana-token-0123456789abcdef';

function requestWith(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('tokenAuthentication', () => {
  const auth = tokenAuthentication({ tokens: { [ANA]: 'user:ana' } });

  it('reads the principal from a bearer token or the sign-in cookie', () => {
    expect(auth.authenticate(requestWith({ authorization: `Bearer ${ANA}` }))).toEqual({ principal: 'user:ana' });
    expect(auth.authenticate(requestWith({ cookie: `other=1; milpa_console_session=${ANA}` }))).toEqual({ principal: 'user:ana' });
  });

  it('signs nobody in for an unknown, malformed or missing token', () => {
    expect(auth.authenticate(requestWith({ authorization: 'Bearer ana-token-0123456789abcdeX' }))).toBeNull();
    expect(auth.authenticate(requestWith({ authorization: 'Bearer <script>' }))).toBeNull();
    expect(auth.authenticate(requestWith({}))).toBeNull();
    expect(auth.login.accepts('nope')).toBe(false);
    expect(auth.login.accepts(ANA)).toBe(true);
    expect(auth.login.cookieName).toBe('milpa_console_session');
  });

  it('refuses tokens a cookie cannot carry or that are too short, and blank principals', () => {
    expect(() => tokenAuthentication({ tokens: { short: 'user:ana' } })).toThrow('16 to 512 characters');
    expect(() => tokenAuthentication({ tokens: { 'has;semicolon-0123456789': 'user:ana' } })).toThrow('16 to 512 characters');
    expect(() => tokenAuthentication({ tokens: { [ANA]: ' ' } })).toThrow('non-empty principal');
    expect(() => tokenAuthentication({ tokens: {}, cookieName: 'bad name' })).toThrow('cookieName');
  });
});
