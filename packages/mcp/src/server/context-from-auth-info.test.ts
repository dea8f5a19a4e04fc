import { describe, expect, it } from 'vitest';
import { contextFromAuthInfo } from './context-from-auth-info.js';

describe('contextFromAuthInfo', () => {
  it('is anonymous on the mcp channel without credentials', () => {
    const context = contextFromAuthInfo('r-1', undefined);
    expect(context.toJSON()).toMatchObject({ principal: null, channel: 'mcp', scopes: [], request_id: 'r-1' });
  });

  it('uses the clientId and the exact scopes of a token', () => {
    const context = contextFromAuthInfo('r-1', { token: 't', clientId: 'app-7', scopes: ['notes:read'] });
    expect(context.toJSON()).toMatchObject({ principal: 'app-7', channel: 'mcp', scopes: ['notes:read'] });
  });

  it('prefers extra.principal, including an explicit null, and reads ip and userAgent', () => {
    const named = contextFromAuthInfo('r-1', {
      token: '',
      clientId: 'app',
      scopes: [],
      extra: { principal: 'user:9', ip: '10.0.0.1', userAgent: 'ua' },
    });
    expect(named.toJSON()).toMatchObject({ principal: 'user:9', ip: '10.0.0.1', user_agent: 'ua' });
    const anonymous = contextFromAuthInfo('r-1', { token: '', clientId: 'app', scopes: [], extra: { principal: null } });
    expect(anonymous.principal).toBeNull();
  });

  it('treats an empty clientId as anonymous rather than as the principal ""', () => {
    expect(contextFromAuthInfo('r-1', { token: '', clientId: '', scopes: [] }).principal).toBeNull();
  });

  it('never adds a wildcard scope', () => {
    expect(contextFromAuthInfo('r-1', { token: '', clientId: 'a', scopes: [] }).hasScope('anything')).toBe(false);
  });
});
