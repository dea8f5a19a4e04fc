import type { IncomingMessage } from 'node:http';
import { MilpaError } from '@milpa/core';
import { InvalidTokenError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { describe, expect, it } from 'vitest';
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

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', 'Token abc'])('throws McpAuthenticationError for the malformed header %j', async (header) => {
    const { verifier, seen } = verifierReturning({});
    await expect(bearerAuthenticator(verifier)(requestWith(header))).rejects.toThrow(McpAuthenticationError);
    expect(seen).toEqual([]);
  });

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
});
