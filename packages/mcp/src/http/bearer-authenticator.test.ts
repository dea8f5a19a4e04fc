import type { IncomingMessage } from 'node:http';
import { MilpaError } from '@milpa/core';
import { InvalidTokenError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bearerAuthenticator } from './bearer-authenticator.js';
import { McpAuthenticationError } from './mcp-authentication-error.js';

function requestWith(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

function verifierReturning(authInfo: Partial<AuthInfo>) {
  const seen: string[] = [];
  return {
    seen,
    verifier: {
      verifyAccessToken: async (token: string): Promise<AuthInfo> => {
        seen.push(token);
        return { token, clientId: 'client-1', scopes: ['notes:read'], ...authInfo };
      },
    },
  };
}

describe('bearerAuthenticator', () => {
  it('returns null (anonymous) without calling the verifier when there is no Authorization header', async () => {
    const { verifier, seen } = verifierReturning({});
    expect(await bearerAuthenticator(verifier)(requestWith())).toBeNull();
    expect(seen).toEqual([]);
  });

  it('maps a verified token to its clientId and exact scopes', async () => {
    const { verifier, seen } = verifierReturning({ scopes: ['a', 'b'] });
    expect(await bearerAuthenticator(verifier)(requestWith('Bearer abc.def'))).toEqual({ principal: 'client-1', scopes: ['a', 'b'] });
    expect(seen).toEqual(['abc.def']);
  });

  it('accepts the scheme in any case', async () => {
    const { verifier } = verifierReturning({});
    expect(await bearerAuthenticator(verifier)(requestWith('bearer xyz'))).toMatchObject({ principal: 'client-1' });
  });

  it('prefers authInfo.extra.principal, and a custom principal function over both', async () => {
    const { verifier } = verifierReturning({ extra: { principal: 'user:42' } });
    expect(await bearerAuthenticator(verifier)(requestWith('Bearer t'))).toMatchObject({ principal: 'user:42' });
    const custom = bearerAuthenticator(verifier, { principal: (info) => `oauth:${info.clientId}` });
    expect(await custom(requestWith('Bearer t'))).toMatchObject({ principal: 'oauth:client-1' });
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', 'Token abc'])(
    'throws McpAuthenticationError for the malformed header %j',
    async (header) => {
      const { verifier, seen } = verifierReturning({});
      await expect(bearerAuthenticator(verifier)(requestWith(header))).rejects.toThrow(McpAuthenticationError);
      expect(seen).toEqual([]);
    },
  );

  it('throws McpAuthenticationError (code UNAUTHORIZED) when the verifier rejects the token', async () => {
    const authenticate = bearerAuthenticator({
      verifyAccessToken: () => Promise.reject(new InvalidTokenError('Token revoked')),
    });
    const error = await authenticate(requestWith('Bearer t')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpAuthenticationError);
    expect(MilpaError.isInstance(error) && error.code).toBe('UNAUTHORIZED');
    expect((error as Error).message).toBe('Token revoked');
  });

  it('throws McpAuthenticationError for an expired token', async () => {
    const { verifier } = verifierReturning({ expiresAt: Math.floor(Date.now() / 1000) - 10 });
    await expect(bearerAuthenticator(verifier)(requestWith('Bearer t'))).rejects.toThrow('Token has expired.');
  });

  it('accepts a token that expires in the future', async () => {
    const { verifier } = verifierReturning({ expiresAt: Math.floor(Date.now() / 1000) + 600 });
    expect(await bearerAuthenticator(verifier)(requestWith('Bearer t'))).toMatchObject({ principal: 'client-1' });
  });

  it('lets other verifier failures propagate, so an outage never grants access', async () => {
    const outage = new ServerError('database down');
    const authenticate = bearerAuthenticator({ verifyAccessToken: () => Promise.reject(outage) });
    await expect(authenticate(requestWith('Bearer t'))).rejects.toBe(outage);
  });

  describe('header format', () => {
    it.each(['Bearer\tt-1', 'Bearer   t-1', 'Bearer t-1   ', 'Bearer t-1\t', 'BEARER t-1'])(
      'passes the token of %j to the verifier',
      async (header) => {
        const { verifier, seen } = verifierReturning({});
        expect(await bearerAuthenticator(verifier)(requestWith(header))).toMatchObject({ principal: 'client-1' });
        expect(seen).toEqual(['t-1']);
      },
    );

    it.each(['xBearer t', ' Bearer t', 'Bearert', 'Bearer t\n', 'Bearer \nt', 'Bearer t x', ''])(
      'throws McpAuthenticationError for %j without calling the verifier',
      async (header) => {
        const { verifier, seen } = verifierReturning({});
        const error = await bearerAuthenticator(verifier)(requestWith(header)).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(McpAuthenticationError);
        expect((error as Error).message).toBe('Invalid Authorization header format, expected "Bearer TOKEN".');
        expect(seen).toEqual([]);
      },
    );
  });

  describe('verifier failures', () => {
    it('throws McpAuthenticationError with the cause when the verifier answers invalid_request', async () => {
      const rejection = Object.assign(new Error('Malformed token'), { errorCode: 'invalid_request' });
      const authenticate = bearerAuthenticator({ verifyAccessToken: () => Promise.reject(rejection) });
      const error = await authenticate(requestWith('Bearer t')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpAuthenticationError);
      expect((error as Error).message).toBe('Malformed token');
      expect((error as Error).cause).toBe(rejection);
    });

    it('throws McpAuthenticationError saying "Invalid token" when the rejection is not an Error', async () => {
      const rejection = { errorCode: 'invalid_token' };
      const authenticate = bearerAuthenticator({ verifyAccessToken: () => Promise.reject(rejection) });
      const error = await authenticate(requestWith('Bearer t')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpAuthenticationError);
      expect((error as Error).message).toBe('Invalid token');
      expect((error as Error).cause).toBe(rejection);
    });

    it('rethrows an McpAuthenticationError of the verifier as it is', async () => {
      const own = new McpAuthenticationError('Revoked by the issuer.');
      const authenticate = bearerAuthenticator({ verifyAccessToken: () => Promise.reject(own) });
      await expect(authenticate(requestWith('Bearer t'))).rejects.toBe(own);
    });

    it('lets a rejection with another errorCode, or with null, propagate unchanged', async () => {
      const other = Object.assign(new Error('insufficient'), { errorCode: 'insufficient_scope' });
      await expect(bearerAuthenticator({ verifyAccessToken: () => Promise.reject(other) })(requestWith('Bearer t'))).rejects.toBe(other);
      const error = await bearerAuthenticator({ verifyAccessToken: () => Promise.reject(null) })(requestWith('Bearer t')).then(
        () => 'resolved',
        (caught: unknown) => caught,
      );
      expect(error).toBeNull();
    });
  });

  describe('expiry', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('accepts a token through the second it expires and refuses it a millisecond later', async () => {
      vi.useFakeTimers({ now: 1_700_000_000_000 });
      const atExpiry = verifierReturning({ expiresAt: 1_700_000_000 });
      expect(await bearerAuthenticator(atExpiry.verifier)(requestWith('Bearer t'))).toMatchObject({ principal: 'client-1' });
      const justBefore = verifierReturning({ expiresAt: 1_699_999_999.999 });
      await expect(bearerAuthenticator(justBefore.verifier)(requestWith('Bearer t'))).rejects.toThrow('Token has expired.');
      const soon = verifierReturning({ expiresAt: 1_700_000_001 });
      expect(await bearerAuthenticator(soon.verifier)(requestWith('Bearer t'))).toMatchObject({ principal: 'client-1' });
    });

    it('refuses a token whose expiresAt is NaN', async () => {
      const { verifier } = verifierReturning({ expiresAt: Number.NaN });
      await expect(bearerAuthenticator(verifier)(requestWith('Bearer t'))).rejects.toThrow(McpAuthenticationError);
    });

    it('accepts a token without expiresAt', async () => {
      const { verifier } = verifierReturning({ expiresAt: undefined });
      expect(await bearerAuthenticator(verifier)(requestWith('Bearer t'))).toEqual({ principal: 'client-1', scopes: ['notes:read'] });
    });
  });

  describe('identity', () => {
    it('gives a null principal for an empty clientId and falls back to clientId for a non-string extra.principal', async () => {
      const empty = verifierReturning({ clientId: '' });
      expect(await bearerAuthenticator(empty.verifier)(requestWith('Bearer t'))).toEqual({ principal: null, scopes: ['notes:read'] });
      const numeric = verifierReturning({ extra: { principal: 42 } });
      expect(await bearerAuthenticator(numeric.verifier)(requestWith('Bearer t'))).toMatchObject({ principal: 'client-1' });
      const emptyExtra = verifierReturning({ clientId: '', extra: { principal: '' } });
      expect(await bearerAuthenticator(emptyExtra.verifier)(requestWith('Bearer t'))).toMatchObject({ principal: '' });
    });

    it('gives no scopes when the verifier returns scopes that are not a list', async () => {
      const { verifier } = verifierReturning({ scopes: undefined as never });
      expect(await bearerAuthenticator(verifier)(requestWith('Bearer t'))).toEqual({ principal: 'client-1', scopes: [] });
      const text = verifierReturning({ scopes: 'notes:read' as never });
      expect(await bearerAuthenticator(text.verifier)(requestWith('Bearer t'))).toEqual({ principal: 'client-1', scopes: [] });
    });
  });
});
