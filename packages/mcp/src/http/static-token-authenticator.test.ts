import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { McpAuthenticationError } from './mcp-authentication-error.js';
import { staticTokenAuthenticator } from './static-token-authenticator.js';

function requestWith(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

describe('staticTokenAuthenticator', () => {
  const authenticate = staticTokenAuthenticator({
    'token-a': { principal: 'agent:a', scopes: ['notes:read'] },
    'token-anon': { principal: null, scopes: ['public'] },
    '': { principal: 'empty', scopes: ['*'] },
  });

  it('grants the identity mapped to the token', async () => {
    expect(await authenticate(requestWith('Bearer token-a'))).toEqual({ principal: 'agent:a', scopes: ['notes:read'] });
  });

  it('keeps a null principal as anonymous', async () => {
    expect(await authenticate(requestWith('Bearer token-anon'))).toEqual({ principal: null, scopes: ['public'] });
  });

  it('is anonymous without a header and refuses an unknown token', async () => {
    expect(await authenticate(requestWith())).toBeNull();
    await expect(authenticate(requestWith('Bearer token-b'))).rejects.toThrow(McpAuthenticationError);
  });

  it('never accepts the empty token', async () => {
    await expect(authenticate(requestWith('Bearer '))).rejects.toThrow(McpAuthenticationError);
  });

  it('does not match tokens by prototype keys', async () => {
    await expect(authenticate(requestWith('Bearer constructor'))).rejects.toThrow('Unknown token');
  });
});
