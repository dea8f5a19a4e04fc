import { describe, expect, it } from 'vitest';
import { buildCallerContext } from './caller-context.js';

describe('buildCallerContext', () => {
  it('returns ToolContext.cli() (principal cli, scopes *) when nothing is given', () => {
    const context = buildCallerContext({});
    expect(context.toJSON()).toMatchObject({ channel: 'cli', principal: 'cli', scopes: ['*'], mode: 'execute' });
  });

  it('lets --actor and --scope replace the cli defaults', () => {
    const context = buildCallerContext({ channel: 'cli', actor: 'ops:ana', scopes: ['notes:read'] });
    expect(context.toJSON()).toMatchObject({ channel: 'cli', principal: 'ops:ana', scopes: ['notes:read'] });
  });

  it('leaves an mcp caller without --actor anonymous instead of inventing a principal', () => {
    const context = buildCallerContext({ channel: 'mcp', scopes: ['notes:read'] });
    expect(context.principal).toBeNull();
    expect(context.scopes).toEqual(['notes:read']);
  });

  it('gives mcp, web and telegram exactly the principal and scopes passed, never a wildcard', () => {
    for (const channel of ['mcp', 'web', 'telegram'] as const) {
      expect(buildCallerContext({ channel, actor: 'agent:a' }).toJSON()).toMatchObject({ channel, principal: 'agent:a', scopes: [] });
    }
  });

  it('uses the request id given, or generates one', () => {
    expect(buildCallerContext({ channel: 'mcp', requestId: 'req-7' }).requestId).toBe('req-7');
    expect(buildCallerContext({ channel: 'web', requestId: 'req-8' }).requestId).toBe('req-8');
    expect(buildCallerContext({ channel: 'mcp' }).requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('builds the caller in plan mode when asked, on every channel', () => {
    expect(buildCallerContext({ plan: true }).mode).toBe('plan');
    expect(buildCallerContext({ channel: 'telegram', plan: true }).mode).toBe('plan');
  });
});
