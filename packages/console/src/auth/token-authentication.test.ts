import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ApprovalItem } from '../console/approval-item.js';
import { tokenAuthentication } from './token-authentication.js';

const ANA = 'ana-token-0123456789abcdef';
const LUIS = 'luis-token-0123456789abcdef';

function requestWith(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

function itemOf(tool: string, policy: ApprovalItem['policy']): ApprovalItem {
  return { tool, policy } as unknown as ApprovalItem;
}

describe('tokenAuthentication', () => {
  describe('authenticate', () => {
    it('reads the principal from a bearer token, and from a session cookie the sign-in began', async () => {
      const auth = tokenAuthentication({ tokens: { [ANA]: 'user:ana' } });
      expect(await auth.authenticate(requestWith({ authorization: `Bearer ${ANA}` }))).toEqual({ principal: 'user:ana' });
      const sessionId = await auth.login.signIn(ANA);
      expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await auth.authenticate(requestWith({ cookie: `other=1; milpa_console_session=${sessionId}` }))).toEqual({
        principal: 'user:ana',
      });
    });

    it('signs nobody in for an unknown, malformed or missing token, nor for the token itself as a cookie', async () => {
      const auth = tokenAuthentication({ tokens: { [ANA]: 'user:ana' } });
      expect(await auth.authenticate(requestWith({ authorization: 'Bearer ana-token-0123456789abcdeX' }))).toBeNull();
      expect(await auth.authenticate(requestWith({ authorization: 'Bearer <script>' }))).toBeNull();
      expect(await auth.authenticate(requestWith({}))).toBeNull();
      expect(await auth.authenticate(requestWith({ cookie: `milpa_console_session=${ANA}` }))).toBeNull();
      expect(await auth.login.signIn('nope')).toBeNull();
      expect(auth.login.cookieName).toBe('milpa_console_session');
    });
  });

  describe('login', () => {
    it('begins a different session at every sign-in, and signOut ends only that one', async () => {
      const auth = tokenAuthentication({ tokens: { [ANA]: 'user:ana' } });
      const first = (await auth.login.signIn(ANA))!;
      const second = (await auth.login.signIn(ANA))!;
      expect(first).not.toBe(second);
      await auth.login.signOut(first);
      expect(await auth.authenticate(requestWith({ cookie: `milpa_console_session=${first}` }))).toBeNull();
      expect(await auth.authenticate(requestWith({ cookie: `milpa_console_session=${second}` }))).toEqual({ principal: 'user:ana' });
    });
  });

  describe('removeToken', () => {
    it('stops the token signing in and ends the sessions it began, leaving other tokens alone', async () => {
      const auth = tokenAuthentication({ tokens: { [ANA]: 'user:ana', [LUIS]: 'user:luis' } });
      const anaSession = (await auth.login.signIn(ANA))!;
      const luisSession = (await auth.login.signIn(LUIS))!;
      expect(auth.removeToken(ANA)).toBe(true);
      expect(auth.removeToken(ANA)).toBe(false);
      expect(await auth.authenticate(requestWith({ cookie: `milpa_console_session=${anaSession}` }))).toBeNull();
      expect(await auth.authenticate(requestWith({ authorization: `Bearer ${ANA}` }))).toBeNull();
      expect(await auth.login.signIn(ANA)).toBeNull();
      expect(await auth.authenticate(requestWith({ cookie: `milpa_console_session=${luisSession}` }))).toEqual({ principal: 'user:luis' });
    });
  });

  describe('authorize', () => {
    it('is absent without an approvers table', () => {
      expect('authorize' in tokenAuthentication({ tokens: { [ANA]: 'user:ana' } })).toBe(false);
    });

    it('allows the listed tools and policies, and nothing to a principal without an entry', async () => {
      const { authorize } = tokenAuthentication({
        tokens: { [ANA]: 'user:ana' },
        approvers: { 'user:ana': { tools: ['print_note'] }, 'user:luis': { tools: ['*'], policies: ['dual'] } },
      });
      expect(await authorize!({ principal: 'user:ana' }, itemOf('print_note', 'single'))).toBe(true);
      expect(await authorize!({ principal: 'user:ana' }, itemOf('delete_note', 'dual'))).toBe(false);
      expect(await authorize!({ principal: 'user:luis' }, itemOf('delete_note', 'dual'))).toBe(true);
      expect(await authorize!({ principal: 'user:luis' }, itemOf('print_note', 'single'))).toBe(false);
      expect(await authorize!({ principal: 'user:eve' }, itemOf('print_note', 'single'))).toBe(false);
      expect(await authorize!({ principal: '__proto__' }, itemOf('print_note', 'single'))).toBe(false);
    });
  });

  describe('options', () => {
    it('refuses tokens a cookie cannot carry or that are too short, blank principals and malformed tables', () => {
      expect(() => tokenAuthentication({ tokens: { short: 'user:ana' } })).toThrow('16 to 512 characters');
      expect(() => tokenAuthentication({ tokens: { 'has;semicolon-0123456789': 'user:ana' } })).toThrow('16 to 512 characters');
      expect(() => tokenAuthentication({ tokens: { [ANA]: ' ' } })).toThrow('non-empty principal');
      expect(() => tokenAuthentication({ tokens: {}, cookieName: 'bad name' })).toThrow('cookieName');
      expect(() => tokenAuthentication({ tokens: {}, idleTimeoutMs: 0 })).toThrow('idleTimeoutMs');
      const noTools = { 'user:ana': {} } as unknown as Record<string, { tools: string[] }>;
      expect(() => tokenAuthentication({ tokens: {}, approvers: noTools })).toThrow('needs tools');
      expect(() => tokenAuthentication({ tokens: {}, approvers: { 'user:ana': { tools: ['print_note', ''] } } })).toThrow('needs tools');
    });
  });
});
