import { describe, expect, it } from 'vitest';
import { MilpaError } from '../errors/milpa-error.js';
import { ToolContext, type ToolContextInit } from './tool-context.js';

const HEX32 = /^[0-9a-f]{32}$/;

function invalidArgument(message: string) {
  return expect.objectContaining({ code: 'INVALID_ARGUMENT', message });
}

describe('ToolContext', () => {
  describe('constructor', () => {
    it('defaults to an anonymous unknown-channel caller with no scopes in execute mode', () => {
      const context = new ToolContext();

      expect(context.principal).toBeNull();
      expect(context.channel).toBe('unknown');
      expect(context.scopes).toEqual([]);
      expect(context.mode).toBe('execute');
      expect(context.requestId).toMatch(HEX32);
      expect(context.ip).toBeNull();
      expect(context.userAgent).toBeNull();
      expect(context.extra).toEqual({});
    });

    it('gives every new context its own request id', () => {
      const ids = new Set(Array.from({ length: 100 }, () => new ToolContext().requestId));

      expect(ids.size).toBe(100);
    });

    it('keeps every given field unchanged', () => {
      const context = new ToolContext({
        principal: 'user:42',
        channel: 'web',
        scopes: ['notes:read'],
        requestId: 'req-abc',
        ip: '203.0.113.9',
        userAgent: 'curl/8',
        extra: { tenant: 't1' },
        mode: 'plan',
      });

      expect(context.principal).toBe('user:42');
      expect(context.channel).toBe('web');
      expect(context.scopes).toEqual(['notes:read']);
      expect(context.requestId).toBe('req-abc');
      expect(context.ip).toBe('203.0.113.9');
      expect(context.userAgent).toBe('curl/8');
      expect(context.extra).toEqual({ tenant: 't1' });
      expect(context.mode).toBe('plan');
    });

    it('keeps an empty-string principal, which the policy gate denies later', () => {
      expect(new ToolContext({ principal: '' }).principal).toBe('');
    });

    it('freezes itself, its scopes and a copy of its extras', () => {
      const scopes = ['a'];
      const extra: Record<string, unknown> = { chat_id: 1 };
      const context = new ToolContext({ scopes, extra });
      scopes.push('*');
      extra['chat_id'] = 2;

      expect(Object.isFrozen(context)).toBe(true);
      expect(Object.isFrozen(context.scopes)).toBe(true);
      expect(Object.isFrozen(context.extra)).toBe(true);
      expect(context.scopes).toEqual(['a']);
      expect(context.hasScope('anything')).toBe(false);
      expect(context.extra).toEqual({ chat_id: 1 });
    });

    it.each(['dry-run', 'Plan', 'EXECUTE', '', null, 1])('throws INVALID_MODE when the mode is %j', (mode) => {
      const attempt = () => new ToolContext({ mode: mode as never });

      expect(attempt).toThrow(MilpaError);
      expect(attempt).toThrow(
        expect.objectContaining({
          code: 'INVALID_MODE',
          message: `Unknown ToolContext mode '${String(mode)}'. Use 'execute' or 'plan'.`,
        }),
      );
    });

    it.each<[string, ToolContextInit, string]>([
      ['principal', { principal: 42 as never }, 'ToolContext principal must be a string or null.'],
      ['channel', { channel: '' }, 'ToolContext channel must be a non-empty string.'],
      ['channel', { channel: null as never }, 'ToolContext channel must be a non-empty string.'],
      ['scopes', { scopes: 'notes:read' as never }, 'ToolContext scopes must be an array of strings.'],
      ['scopes', { scopes: ['ok', 7] as never }, 'ToolContext scopes must be an array of strings.'],
      ['requestId', { requestId: '' }, 'ToolContext requestId must be a non-empty string.'],
      ['requestId', { requestId: 123 as never }, 'ToolContext requestId must be a non-empty string.'],
      ['ip', { ip: 3232235777 as never }, 'ToolContext ip must be a string or null.'],
      ['userAgent', { userAgent: {} as never }, 'ToolContext userAgent must be a string or null.'],
      ['extra', { extra: ['x'] as never }, 'ToolContext extra must be an object.'],
      ['extra', { extra: 'x' as never }, 'ToolContext extra must be an object.'],
    ])('throws INVALID_ARGUMENT when %s is malformed', (_field, init, message) => {
      expect(() => new ToolContext(init)).toThrow(invalidArgument(message));
    });
  });

  describe('cli', () => {
    it('is a trusted local operator: channel cli, principal cli, scopes [*]', () => {
      const context = ToolContext.cli();

      expect(context.channel).toBe('cli');
      expect(context.principal).toBe('cli');
      expect(context.scopes).toEqual(['*']);
      expect(context.mode).toBe('execute');
      expect(context.requestId).toMatch(HEX32);
    });

    it('keeps an explicit request id', () => {
      expect(ToolContext.cli('req-cli').requestId).toBe('req-cli');
    });
  });

  describe('mcp', () => {
    it('keeps principal, request id and scopes exactly, adding no wildcard', () => {
      const context = ToolContext.mcp('req-123', 'user:456', ['tools:read', 'tools:write']);

      expect(context.channel).toBe('mcp');
      expect(context.principal).toBe('user:456');
      expect(context.requestId).toBe('req-123');
      expect(context.scopes).toEqual(['tools:read', 'tools:write']);
      expect(context.hasScope('admin')).toBe(false);
    });

    it('uses the placeholder principal mcp and no scopes when no principal is given', () => {
      const context = ToolContext.mcp('req-1');

      expect(context.principal).toBe('mcp');
      expect(context.scopes).toEqual([]);
    });

    it('is anonymous when the principal is explicitly null', () => {
      expect(ToolContext.mcp('req-1', null).principal).toBeNull();
    });

    it('keeps an empty-string principal as given', () => {
      expect(ToolContext.mcp('req-1', '').principal).toBe('');
    });
  });

  describe('stdio', () => {
    it('is a process-trusted mcp caller: principal stdio, channel mcp, scopes [*]', () => {
      const context = ToolContext.stdio('req-1');

      expect(context.principal).toBe('stdio');
      expect(context.channel).toBe('mcp');
      expect(context.scopes).toEqual(['*']);
      expect(context.requestId).toBe('req-1');
      expect(context.mode).toBe('execute');
    });

    it('lets a custom principal and scopes override the defaults', () => {
      const context = ToolContext.stdio('req-2', 'editor', ['notes:read']);

      expect(context.principal).toBe('editor');
      expect(context.scopes).toEqual(['notes:read']);
      expect(context.hasScope('notes:write')).toBe(false);
    });
  });

  describe('telegram', () => {
    it('uses the user id as principal and sets extra.chat_id', () => {
      const context = ToolContext.telegram('chat-9', 'tg:77');

      expect(context.principal).toBe('tg:77');
      expect(context.channel).toBe('telegram');
      expect(context.scopes).toEqual(['read', 'write']);
      expect(context.extra).toEqual({ chat_id: 'chat-9' });
      expect(context.requestId).toMatch(HEX32);
    });

    it('uses chat:{chatId} as principal when there is no user id', () => {
      expect(ToolContext.telegram('12345').principal).toBe('chat:12345');
      expect(ToolContext.telegram(12345, null).principal).toBe('chat:12345');
    });
  });

  describe('web', () => {
    it('keeps the principal and exactly the given scopes, with no wildcard', () => {
      const context = ToolContext.web('user:42', ['posts:read', 'posts:write']);

      expect(context.channel).toBe('web');
      expect(context.principal).toBe('user:42');
      expect(context.scopes).toEqual(['posts:read', 'posts:write']);
      expect(context.scopes).not.toContain('*');
      expect(context.mode).toBe('execute');
    });

    it('grants no scope when given none', () => {
      const context = ToolContext.web('user:42', []);

      expect(context.hasScope('posts:read')).toBe(false);
      expect(context.hasAnyScope(['posts:read', 'admin'])).toBe(false);
    });
  });

  describe('asPlan', () => {
    it('returns a plan-mode copy with the same caller and leaves the original in execute mode', () => {
      const original = new ToolContext({
        principal: 'user:1',
        channel: 'web',
        scopes: ['a'],
        requestId: 'req-plan',
        ip: '10.0.0.1',
        userAgent: 'ua',
        extra: { k: 'v' },
      });
      const plan = original.asPlan();

      expect(plan).not.toBe(original);
      expect(plan.mode).toBe('plan');
      expect(plan.isPlanMode()).toBe(true);
      expect(plan.isExecuteMode()).toBe(false);
      expect(plan.principal).toBe('user:1');
      expect(plan.channel).toBe('web');
      expect(plan.scopes).toEqual(['a']);
      expect(plan.requestId).toBe('req-plan');
      expect(plan.ip).toBe('10.0.0.1');
      expect(plan.userAgent).toBe('ua');
      expect(plan.extra).toEqual({ k: 'v' });
      expect(original.mode).toBe('execute');
      expect(original.isExecuteMode()).toBe(true);
      expect(original.isPlanMode()).toBe(false);
    });
  });

  describe('with', () => {
    it('replaces only the given fields and keeps the request id', () => {
      const original = ToolContext.mcp('req-w', 'user:1', ['a']);
      const changed = original.with({ scopes: ['b'], ip: '10.0.0.2' });

      expect(changed.scopes).toEqual(['b']);
      expect(changed.ip).toBe('10.0.0.2');
      expect(changed.principal).toBe('user:1');
      expect(changed.channel).toBe('mcp');
      expect(changed.requestId).toBe('req-w');
      expect(original.scopes).toEqual(['a']);
    });

    it('keeps plan mode and the request id when a change is explicitly undefined', () => {
      const plan = ToolContext.mcp('req-u', 'user:1', ['a']).asPlan();
      const changed = plan.with({ mode: undefined, requestId: undefined, principal: 'user:2' });

      expect(changed.mode).toBe('plan');
      expect(changed.requestId).toBe('req-u');
      expect(changed.principal).toBe('user:2');
    });

    it('sets the principal to null when given null explicitly', () => {
      expect(ToolContext.web('user:1', []).with({ principal: null }).principal).toBeNull();
    });

    it('validates the changed fields', () => {
      expect(() => ToolContext.cli().with({ mode: 'dry-run' as never })).toThrow(expect.objectContaining({ code: 'INVALID_MODE' }));
      expect(() => ToolContext.cli().with({ channel: '' })).toThrow(invalidArgument('ToolContext channel must be a non-empty string.'));
    });
  });

  describe('hasScope', () => {
    it('returns true only for an exact scope when there is no wildcard', () => {
      const context = new ToolContext({ scopes: ['tools:read', 'tools:write'] });

      expect(context.hasScope('tools:read')).toBe(true);
      expect(context.hasScope('tools')).toBe(false);
      expect(context.hasScope('TOOLS:READ')).toBe(false);
    });

    it('returns true for any scope when the context holds *', () => {
      const context = new ToolContext({ scopes: ['*'] });

      expect(context.hasScope('anything:at-all')).toBe(true);
      expect(context.hasScope('')).toBe(true);
    });

    it('treats * inside a scope string literally', () => {
      const context = new ToolContext({ scopes: ['admin:*'] });

      expect(context.hasScope('admin:users')).toBe(false);
      expect(context.hasScope('admin:*')).toBe(true);
    });
  });

  describe('hasAnyScope', () => {
    it('returns true when one scope is held and false for a glob-looking one', () => {
      const context = new ToolContext({ scopes: ['tools:read', 'tools:write'] });

      expect(context.hasAnyScope(['tools:read'])).toBe(true);
      expect(context.hasAnyScope(['admin:*'])).toBe(false);
      expect(context.hasAnyScope(['x', 'tools:write'])).toBe(true);
    });

    it('returns false for an empty list, even with a wildcard', () => {
      expect(new ToolContext({ scopes: ['a'] }).hasAnyScope([])).toBe(false);
      expect(ToolContext.cli().hasAnyScope([])).toBe(false);
    });
  });

  describe('hasAllScopes', () => {
    it('returns true only when every scope is held', () => {
      const context = new ToolContext({ scopes: ['a', 'b'] });

      expect(context.hasAllScopes(['a', 'b'])).toBe(true);
      expect(context.hasAllScopes(['a', 'c'])).toBe(false);
      expect(ToolContext.cli().hasAllScopes(['a', 'c'])).toBe(true);
    });

    it('returns true for an empty list, even with no scopes', () => {
      expect(new ToolContext().hasAllScopes([])).toBe(true);
    });
  });

  describe('toJSON', () => {
    it('gives exactly the nine snake_case wire keys and leaves extra out', () => {
      const context = new ToolContext({
        principal: 'user:1',
        channel: 'web',
        scopes: ['a'],
        requestId: 'req-j',
        ip: '10.0.0.1',
        userAgent: 'ua',
        extra: { secret: 'do-not-serialize' },
        mode: 'plan',
      });

      expect(Object.keys(context.toJSON())).toEqual([
        'principal',
        'channel',
        'scopes',
        'request_id',
        'ip',
        'user_agent',
        'mode',
        'actor',
        'run_id',
      ]);
      expect(context.toJSON()).toEqual({
        principal: 'user:1',
        channel: 'web',
        scopes: ['a'],
        request_id: 'req-j',
        ip: '10.0.0.1',
        user_agent: 'ua',
        mode: 'plan',
        actor: 'user:1',
        run_id: null,
      });
      expect(JSON.stringify(context)).not.toContain('do-not-serialize');
    });
  });

  describe('actor and runId', () => {
    it('defaults the actor to the principal and the run to null', () => {
      const context = ToolContext.mcp('r', 'agent:7', []);
      expect(context.actor).toBe('agent:7');
      expect(context.runId).toBeNull();
      expect(ToolContext.web(null).actor).toBeNull();
    });

    it('keeps a named actor apart from the acting principal', () => {
      const context = new ToolContext({ principal: 'svc:notes', actor: 'user:ana', runId: 'run-1', channel: 'web' });
      expect(context.principal).toBe('svc:notes');
      expect(context.actor).toBe('user:ana');
      expect(context.toJSON()).toMatchObject({ actor: 'user:ana', run_id: 'run-1' });
    });

    it('lets a defaulted actor follow a changed principal while a named actor stays', () => {
      const defaulted = ToolContext.web('user:1').with({ principal: 'user:2' });
      expect(defaulted.actor).toBe('user:2');
      const named = new ToolContext({ principal: 'svc', actor: 'user:ana', channel: 'web' }).with({ principal: 'svc:2' });
      expect(named.actor).toBe('user:ana');
      expect(new ToolContext({ principal: 'svc', actor: null, channel: 'web' }).with({ principal: 'x' }).actor).toBeNull();
    });

    it('carries the run through with() and asPlan()', () => {
      const context = ToolContext.web('user:1').with({ runId: 'run-9' });
      expect(context.runId).toBe('run-9');
      expect(context.asPlan().runId).toBe('run-9');
      expect(context.with({ runId: null }).runId).toBeNull();
    });

    it.each([
      ['an empty actor', { actor: '' }, /actor/],
      ['a numeric actor', { actor: 7 as unknown as string }, /actor/],
      ['an empty run id', { runId: '' }, /runId/],
      ['a run id longer than 256 characters', { runId: 'r'.repeat(257) }, /runId/],
      ['a numeric run id', { runId: 1 as unknown as string }, /runId/],
    ])('throws INVALID_ARGUMENT for %s', (_label, init, message) => {
      expect(() => new ToolContext({ channel: 'web', ...init })).toThrow(message);
    });

    it('accepts a run id of exactly 256 characters', () => {
      expect(new ToolContext({ runId: 'r'.repeat(256) }).runId).toHaveLength(256);
    });
  });
});
