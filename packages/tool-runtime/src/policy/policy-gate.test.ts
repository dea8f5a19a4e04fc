import { MilpaError, ToolContext, type Logger, type PolicyRule, type PolicyRuleProvider } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { AuthorizationResult } from './authorization-result.js';
import { FAIL_CLOSED_CHANNEL_POLICY } from './channel-policy.js';
import { PolicyGate, type PolicySubject } from './policy-gate.js';

function subject(overrides: Partial<PolicySubject> = {}): PolicySubject {
  return { name: 'test_tool', scopes: [], mutating: false, requiresConfirmation: false, ...overrides };
}

function rule(overrides: Partial<PolicyRule> = {}): PolicyRule {
  return { id: 7, effect: 'deny', requiresScopes: [], description: null, ...overrides };
}

function provider(answer: PolicyRuleProvider['findMatchingRule']): PolicyRuleProvider {
  return { findMatchingRule: answer };
}

function sync(verdict: AuthorizationResult | Promise<AuthorizationResult>): AuthorizationResult {
  if (verdict instanceof Promise) throw new Error('expected a synchronous verdict');
  return verdict;
}

function reasonOf(verdict: AuthorizationResult | Promise<AuthorizationResult>): string | null {
  if (verdict instanceof Promise) throw new Error('expected a synchronous verdict');
  return verdict.reason;
}

const UNKNOWN_CHANNEL_WARNING = (channel: string): string =>
  `PolicyGate: channel '${channel}' is not a registered channel — falling back to a FAIL-CLOSED policy (require_auth, no ` +
  `allow_all). An unregistered channel is treated as untrusted, never as the laxest policy. Register it explicitly via ` +
  `setChannelPolicy() to define its rules. Why Milpa fails closed on unknown channels: ` +
  `https://academy.milpa.lat/learn/fundamentos/politicas-explicitas`;

const throwingLogger: Logger = {
  debug: () => {
    throw new Error('logger down');
  },
  info: () => {
    throw new Error('logger down');
  },
  warn: () => {
    throw new Error('logger down');
  },
  error: () => {
    throw new Error('logger down');
  },
};

describe('PolicyGate', () => {
  describe('authorize', () => {
    describe('require_auth', () => {
      it('denies an mcp context without a principal with the exact require_auth message', () => {
        const gate = new PolicyGate();
        const verdict = gate.authorize(new ToolContext({ channel: 'mcp' }), subject());
        expect(reasonOf(verdict)).toBe("channel 'mcp' requires an authenticated principal (require_auth) — none provided.");
      });

      it('denies an empty-string principal like a missing one', () => {
        const gate = new PolicyGate();
        expect(reasonOf(gate.authorize(ToolContext.web(''), subject()))).toContain('requires an authenticated principal');
      });

      it("counts the principal '0' as authenticated", () => {
        expect(new PolicyGate().authorize(ToolContext.web('0'), subject())).toBe(AuthorizationResult.allow());
      });

      it('passes the default mcp principal and then checks scopes', () => {
        const gate = new PolicyGate();
        const reason = reasonOf(gate.authorize(ToolContext.mcp('req-123'), subject({ scopes: ['admin:write'] })));
        expect(reason).toBe("Missing required scope for tool 'test_tool'. Need one of: admin:write — context has: (none).");
      });
    });

    describe('scopes', () => {
      it('denies with the exact message listing both sides when no scope matches', () => {
        const gate = new PolicyGate();
        const context = ToolContext.web('user:1', ['tasks:write']);
        const reason = reasonOf(gate.authorize(context, subject({ name: 'resolve_verification', scopes: ['verification:resolve'] })));
        expect(reason).toBe(
          "Missing required scope for tool 'resolve_verification'. Need one of: verification:resolve — context has: tasks:write.",
        );
      });

      it('lists every held scope, comma-separated, when no scope matches', () => {
        const gate = new PolicyGate();
        const context = ToolContext.web('user:1', ['tasks:write', 'notes:read']);
        expect(reasonOf(gate.authorize(context, subject({ scopes: ['admin', 'root'] })))).toBe(
          "Missing required scope for tool 'test_tool'. Need one of: admin, root — context has: tasks:write, notes:read.",
        );
      });

      it('allows when any one of the tool scopes is held', () => {
        const context = ToolContext.web('user:1', ['users:read']);
        expect(sync(new PolicyGate().authorize(context, subject({ scopes: ['users:read', 'admin:read'] }))).allowed).toBe(true);
      });

      it('allows any scope for a context holding *', () => {
        const context = new ToolContext({ channel: 'web', principal: 'root', scopes: ['*'] });
        expect(sync(new PolicyGate().authorize(context, subject({ scopes: ['admin:write'] }))).allowed).toBe(true);
      });

      it('allows a tool without scopes for a context without scopes', () => {
        expect(sync(new PolicyGate().authorize(ToolContext.web('user:1', []), subject())).allowed).toBe(true);
      });

      it('allows an mcp context with a principal and the matching scope', () => {
        const context = ToolContext.mcp('req-1', 'user:456', ['tools:read']);
        expect(sync(new PolicyGate().authorize(context, subject({ scopes: ['tools:read'] }))).allowed).toBe(true);
      });

      it('matches scope strings exactly, with no prefix or glob matching inside them', () => {
        const gate = new PolicyGate();
        for (const held of [['notes:*'], ['notes'], ['notes:read:all'], ['NOTES:READ']]) {
          expect(sync(gate.authorize(ToolContext.web('user:1', held), subject({ scopes: ['notes:read'] }))).allowed).toBe(false);
        }
      });

      it('asks a ToolContext subclass through its own overridden scope methods', () => {
        class GlobContext extends ToolContext {
          override hasScope(scope: string): boolean {
            return super.hasScope(scope) || this.scopes.some((held) => held.endsWith(':*') && scope.startsWith(held.slice(0, -1)));
          }
        }
        class LockedContext extends ToolContext {
          override hasAnyScope(): boolean {
            return false;
          }
        }
        const gate = new PolicyGate();
        const tool = subject({ scopes: ['notes:read'] });
        expect(sync(gate.authorize(new GlobContext({ channel: 'web', principal: 'u', scopes: ['notes:*'] }), tool)).allowed).toBe(true);
        expect(sync(gate.authorize(new LockedContext({ channel: 'web', principal: 'u', scopes: ['*'] }), tool)).allowed).toBe(false);
      });

      it('checks scopes even on an allow_all channel', () => {
        const gate = new PolicyGate();
        gate.setChannelPolicy('kiosk', { allow_all: true });
        const context = new ToolContext({ channel: 'kiosk', principal: 'p', scopes: [] });
        expect(reasonOf(gate.authorize(context, subject({ scopes: ['x'] })))).toContain('Missing required scope');
      });
    });

    describe('channel policy', () => {
      it('allows anything, mutating or confirmable, on the built-in cli channel', () => {
        const gate = new PolicyGate();
        const tool = subject({ mutating: true, requiresConfirmation: true, scopes: ['admin'] });
        expect(gate.authorize(ToolContext.cli(), tool)).toBe(AuthorizationResult.allow());
      });

      it('denies a mutating tool on a block_mutating channel with the exact message', () => {
        const gate = new PolicyGate();
        gate.setChannelPolicy('api', { allow_all: false, block_mutating: true });
        const context = new ToolContext({ channel: 'api', principal: 'svc' });
        expect(reasonOf(gate.authorize(context, subject({ name: 'delete_everything', mutating: true })))).toBe(
          "Mutating tool 'delete_everything' is blocked on channel 'api' (block_mutating policy).",
        );
        expect(sync(gate.authorize(context, subject({ name: 'read_things' }))).allowed).toBe(true);
      });

      it('decides block_mutating for a per-call tool from the answer it is given, and allows it without one', () => {
        const gate = new PolicyGate({ channelPolicies: { api: { allow_all: false, block_mutating: true } } });
        const context = new ToolContext({ channel: 'api', principal: 'svc' });
        const mutating = vi.fn(() => true);
        const shell = subject({ name: 'shell_exec', mutating });
        expect(reasonOf(gate.authorize(context, shell, { mutating: true }))).toBe(
          "Call to 'shell_exec' is blocked on channel 'api': its arguments make it mutating (block_mutating policy).",
        );
        expect(sync(gate.authorize(context, shell, { mutating: false })).allowed).toBe(true);
        expect(sync(gate.authorize(context, shell)).allowed).toBe(true);
        expect(mutating).not.toHaveBeenCalled();
      });

      it('ignores a per-call answer for a tool whose mutating is a boolean', () => {
        const gate = new PolicyGate({ channelPolicies: { api: { allow_all: false, block_mutating: true } } });
        const context = new ToolContext({ channel: 'api', principal: 'svc' });
        expect(sync(gate.authorize(context, subject({ mutating: true }), { mutating: false })).allowed).toBe(false);
      });

      it('counts a hand-built subject whose mutating is neither a boolean nor a function as mutating', () => {
        const gate = new PolicyGate({ channelPolicies: { api: { allow_all: false, block_mutating: true } } });
        const context = new ToolContext({ channel: 'api', principal: 'svc' });
        expect(sync(gate.authorize(context, subject({ mutating: 'yes' as never }))).allowed).toBe(false);
        expect(gate.requiresConfirmation(ToolContext.telegram(1, 'u'), subject({ mutating: 'yes' as never }))).toBe(true);
      });

      it('lets allow_all skip block_mutating', () => {
        const gate = new PolicyGate({ channelPolicies: { ops: { allow_all: true, block_mutating: true } } });
        const context = new ToolContext({ channel: 'ops', principal: 'p' });
        expect(sync(gate.authorize(context, subject({ mutating: true }))).allowed).toBe(true);
      });

      it('does not let allow_all skip require_auth', () => {
        const gate = new PolicyGate({ channelPolicies: { ops: { allow_all: true, require_auth: true } } });
        expect(sync(gate.authorize(new ToolContext({ channel: 'ops' }), subject())).allowed).toBe(false);
      });
    });

    describe('unknown channels', () => {
      it('denies an unregistered channel without a principal (fail-closed)', () => {
        const gate = new PolicyGate();
        expect(reasonOf(gate.authorize(new ToolContext({ channel: 'mystery-channel' }), subject()))).toBe(
          "channel 'mystery-channel' requires an authenticated principal (require_auth) — none provided.",
        );
      });

      it('allows an unregistered channel with a principal and *', () => {
        const context = new ToolContext({ channel: 'mystery-channel', principal: 'p', scopes: ['*'] });
        expect(sync(new PolicyGate().authorize(context, subject({ mutating: true }))).allowed).toBe(true);
      });

      it("treats the default 'unknown' channel as unregistered", () => {
        const logger = new RecordingLogger();
        const gate = new PolicyGate({ logger });
        expect(sync(gate.authorize(new ToolContext(), subject())).allowed).toBe(false);
        expect(logger.messages('warn')).toEqual([UNKNOWN_CHANNEL_WARNING('unknown')]);
      });

      it('logs the exact warning once per authorize call through the logger', () => {
        const logger = new RecordingLogger();
        const gate = new PolicyGate({ logger });
        const context = new ToolContext({ channel: 'mystery-channel', principal: 'p' });
        gate.authorize(context, subject());
        gate.authorize(context, subject());
        expect(logger.messages('warn')).toEqual([UNKNOWN_CHANNEL_WARNING('mystery-channel'), UNKNOWN_CHANNEL_WARNING('mystery-channel')]);
        expect(logger.lines[0]?.context).toEqual({ channel: 'mystery-channel' });
      });

      it('logs nothing for a registered channel', () => {
        const logger = new RecordingLogger();
        new PolicyGate({ logger }).authorize(ToolContext.web('u'), subject());
        expect(logger.lines).toEqual([]);
      });

      it('logs the warning through a logger set later with setLogger', () => {
        const logger = new RecordingLogger();
        const gate = new PolicyGate();
        gate.setLogger(logger);
        gate.authorize(new ToolContext({ channel: 'x', principal: 'p' }), subject());
        expect(logger.messages('warn')).toHaveLength(1);
      });

      it('skips building the warning when the logger has warn disabled', () => {
        const warn = vi.fn();
        const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn(), isLevelEnabled: (level) => level !== 'warn' };
        new PolicyGate({ logger }).authorize(new ToolContext({ channel: 'x', principal: 'p' }), subject());
        expect(warn).not.toHaveBeenCalled();
      });

      it('still decides when the logger throws', () => {
        const gate = new PolicyGate({ logger: throwingLogger });
        const context = new ToolContext({ channel: 'mystery', principal: 'p' });
        expect(sync(gate.authorize(context, subject())).allowed).toBe(true);
        expect(sync(gate.authorize(new ToolContext({ channel: 'mystery' }), subject())).allowed).toBe(false);
      });
    });

    describe('rule provider', () => {
      const webUser = ToolContext.web('user:1', ['reports:read']);

      it('is consulted with (channel, principal, toolName, mutating) only after require_auth and scopes pass', () => {
        const findMatchingRule = vi.fn(() => null);
        const gate = new PolicyGate({ ruleProvider: provider(findMatchingRule) });
        gate.authorize(ToolContext.web(null), subject());
        gate.authorize(webUser, subject({ scopes: ['admin'] }));
        expect(findMatchingRule).not.toHaveBeenCalled();
        gate.authorize(webUser, subject({ name: 'get_report', mutating: true }));
        expect(findMatchingRule).toHaveBeenCalledWith('web', 'user:1', 'get_report', true);
      });

      it('falls through to the channel policy when no rule matches', () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => null) });
        gate.setChannelPolicy('api', { block_mutating: true });
        const context = new ToolContext({ channel: 'api', principal: 'p' });
        expect(sync(gate.authorize(context, subject())).allowed).toBe(true);
        expect(sync(gate.authorize(context, subject({ mutating: true }))).allowed).toBe(false);
      });

      it('falls through to the channel policy when the provider answers undefined (a find() miss)', () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => undefined as never) });
        gate.setChannelPolicy('api', { block_mutating: true });
        const context = new ToolContext({ channel: 'api', principal: 'p' });
        expect(sync(gate.authorize(context, subject()))).toEqual(AuthorizationResult.allow());
        expect(reasonOf(gate.authorize(context, subject({ mutating: true })))).toBe(
          "Mutating tool 'test_tool' is blocked on channel 'api' (block_mutating policy).",
        );
      });

      it('allows on an allow rule that has no description', () => {
        const { description: _omitted, ...bare } = rule({ effect: 'allow' });
        const gate = new PolicyGate({ ruleProvider: provider(() => bare as PolicyRule) });
        expect(sync(gate.authorize(webUser, subject())).allowed).toBe(true);
      });

      it('allows at once on an allow rule, bypassing block_mutating', () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => rule({ effect: 'allow' })) });
        gate.setChannelPolicy('api', { block_mutating: true });
        expect(sync(gate.authorize(new ToolContext({ channel: 'api', principal: 'p' }), subject({ mutating: true }))).allowed).toBe(true);
      });

      it('denies an allow rule whose scopes are not met, with the exact message', () => {
        const gate = new PolicyGate({
          ruleProvider: provider(() => rule({ id: 12, effect: 'allow', requiresScopes: ['reports:admin', 'root'] })),
        });
        expect(reasonOf(gate.authorize(webUser, subject({ name: 'get_report' })))).toBe(
          "Policy rule #12 for tool 'get_report' requires one of these scopes: reports:admin, root — context has: reports:read.",
        );
      });

      it.each([undefined, ''])("renders a rule whose id is %j as '(no id)'", (id) => {
        const gate = new PolicyGate({ ruleProvider: provider(() => rule({ id: id as never })) });
        expect(reasonOf(gate.authorize(ToolContext.web('u'), subject()))).toBe(
          "Denied by policy rule (no id) for tool 'test_tool' on channel 'web' (principal: u).",
        );
      });

      it("renders a rule without an id as '(no id)'", () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => rule({ id: null, requiresScopes: ['root'] })) });
        expect(reasonOf(gate.authorize(ToolContext.web('u'), subject()))).toBe(
          "Policy rule (no id) for tool 'test_tool' requires one of these scopes: root — context has: (none).",
        );
        gate.setRuleProvider(provider(() => rule({ id: null })));
        expect(reasonOf(gate.authorize(ToolContext.web('u'), subject()))).toBe(
          "Denied by policy rule (no id) for tool 'test_tool' on channel 'web' (principal: u).",
        );
      });

      it.each(['deny', 'DENY', 'Allow', 'alow', ''])('denies on effect %j', (effect) => {
        const gate = new PolicyGate({ ruleProvider: provider(() => rule({ effect })) });
        expect(sync(gate.authorize(webUser, subject())).allowed).toBe(false);
      });

      it('uses the rule description verbatim as the reason', () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => rule({ description: 'blocked by host compliance rule' })) });
        expect(reasonOf(gate.authorize(webUser, subject()))).toBe('blocked by host compliance rule');
      });

      it('builds the default deny message when the description is null or empty', () => {
        for (const description of [null, '', '   ']) {
          const gate = new PolicyGate({ ruleProvider: provider(() => rule({ id: 'r-9', description })) });
          expect(reasonOf(gate.authorize(webUser, subject({ name: 'get_report' })))).toBe(
            "Denied by policy rule #r-9 for tool 'get_report' on channel 'web' (principal: user:1).",
          );
        }
      });

      it("prints '(none)' for a missing principal in the default deny message", () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => rule({ id: 3 })) });
        expect(reasonOf(gate.authorize(ToolContext.telegram(5, null).with({ principal: null }), subject()))).toBe(
          "Denied by policy rule #3 for tool 'test_tool' on channel 'telegram' (principal: (none)).",
        );
      });

      it('resolves to the verdict when the provider answers asynchronously', async () => {
        const gate = new PolicyGate({ ruleProvider: provider(async () => rule({ description: 'async no' })) });
        const verdict = gate.authorize(webUser, subject());
        expect(verdict).toBeInstanceOf(Promise);
        expect((await verdict).reason).toBe('async no');
        gate.setRuleProvider(provider(async () => null));
        expect((await gate.authorize(webUser, subject())).allowed).toBe(true);
      });

      it('denies fail-closed, naming the failure, when the provider throws', () => {
        const logger = new RecordingLogger();
        const gate = new PolicyGate({
          logger,
          ruleProvider: provider(() => {
            throw new Error('database unreachable');
          }),
        });
        const verdict = gate.authorize(webUser, subject({ name: 'get_report' }));
        expect(reasonOf(verdict)).toBe(
          "Policy rule provider failed for tool 'get_report' on channel 'web' — denying (fail-closed): database unreachable",
        );
        expect(logger.messages('error')[0]).toContain('database unreachable');
      });

      it('logs the tool, channel, request id and error of a provider failure', () => {
        const logger = new RecordingLogger();
        const failure = new Error('database unreachable');
        const gate = new PolicyGate({
          logger,
          ruleProvider: provider(() => {
            throw failure;
          }),
        });
        gate.authorize(webUser, subject({ name: 'get_report' }));
        expect(logger.lines.filter((line) => line.level === 'error').map((line) => line.context)).toEqual([
          { tool: 'get_report', channel: 'web', request_id: webUser.requestId, error: failure },
        ]);
      });

      it('treats a function with a then method as an asynchronous answer', async () => {
        const thenable = Object.assign(() => undefined, {
          then: (resolve: (rule: PolicyRule) => void) => resolve(rule({ description: 'thenable no' })),
        });
        const gate = new PolicyGate({ ruleProvider: provider(() => thenable as never) });
        const verdict = gate.authorize(webUser, subject());
        expect(verdict).toBeInstanceOf(Promise);
        expect((await verdict).reason).toBe('thenable no');
      });

      it.each<[string, unknown]>([
        ['a number', 5],
        ['a string', 'allow'],
        ['a function carrying rule fields', Object.assign(() => undefined, { effect: 'allow', requiresScopes: [], description: null })],
        ['a rule with a numeric effect', { id: 1, effect: 5, requiresScopes: [], description: null }],
        ['a rule without requiresScopes', { id: 1, effect: 'allow', description: null }],
        ['an allow rule with a numeric description', { id: 1, effect: 'allow', requiresScopes: [], description: 5 }],
      ])('denies fail-closed as a malformed rule when the provider answers %s', (_case, answer) => {
        const gate = new PolicyGate({ ruleProvider: provider(() => answer as never) });
        expect(reasonOf(gate.authorize(webUser, subject({ name: 'get_report' })))).toBe(
          "Policy rule provider failed for tool 'get_report' on channel 'web' — denying (fail-closed): it returned a malformed " +
            'rule (need effect, requiresScopes, description)',
        );
      });

      it('denies fail-closed when the provider rejects', async () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => Promise.reject(new Error('timeout'))) });
        const verdict = await gate.authorize(webUser, subject());
        expect(verdict.allowed).toBe(false);
        expect(verdict.reason).toContain('denying (fail-closed): timeout');
      });

      it('denies fail-closed when the provider throws a non-Error value', () => {
        const gate = new PolicyGate({
          ruleProvider: provider(() => {
            throw 'plain string';
          }),
        });
        expect(reasonOf(gate.authorize(webUser, subject()))).toContain('(fail-closed): plain string');
      });

      it('denies fail-closed when the provider returns a malformed rule', async () => {
        const gate = new PolicyGate({ ruleProvider: provider(() => ({ effect: 'allow' }) as unknown as PolicyRule) });
        expect(reasonOf(gate.authorize(webUser, subject()))).toContain('malformed rule');
        gate.setRuleProvider(provider(async () => 'allow' as unknown as PolicyRule));
        expect((await gate.authorize(webUser, subject())).allowed).toBe(false);
      });

      it('denies fail-closed instead of rejecting when reading the rule throws', async () => {
        const hostile = {
          effect: 'deny',
          requiresScopes: [],
          description: null,
          get id(): never {
            throw new Error('getter exploded');
          },
        } as unknown as PolicyRule;
        const gate = new PolicyGate({ ruleProvider: provider(async () => hostile) });
        const verdict = await gate.authorize(webUser, subject());
        expect(verdict.allowed).toBe(false);
        expect(verdict.reason).toContain('getter exploded');
      });

      it('denies fail-closed even when both the provider and the logger throw', () => {
        const gate = new PolicyGate({
          logger: throwingLogger,
          ruleProvider: provider(() => {
            throw new Error('boom');
          }),
        });
        expect(sync(gate.authorize(webUser, subject())).allowed).toBe(false);
      });
    });
  });

  describe('requiresConfirmation', () => {
    it('is true on telegram for a mutating tool and false for a read-only one', () => {
      const gate = new PolicyGate();
      const context = ToolContext.telegram(1, 'user:789');
      expect(gate.requiresConfirmation(context, subject({ mutating: true }))).toBe(true);
      expect(gate.requiresConfirmation(context, subject())).toBe(false);
    });

    it('follows the per-call answer for a per-call tool, and says it may be needed without one', () => {
      const gate = new PolicyGate();
      const context = ToolContext.telegram(1, 'user:789');
      const shell = subject({ mutating: () => false });
      expect(gate.requiresConfirmation(context, shell, true)).toBe(true);
      expect(gate.requiresConfirmation(context, shell, false)).toBe(false);
      expect(gate.requiresConfirmation(context, shell)).toBe(true);
      expect(gate.requiresConfirmation(ToolContext.cli(), shell)).toBe(false);
    });

    it('is true on any channel for a tool that requires confirmation', () => {
      const gate = new PolicyGate();
      for (const context of [ToolContext.cli(), ToolContext.web('u'), ToolContext.mcp('r', 'p'), new ToolContext({ channel: 'x' })]) {
        expect(gate.requiresConfirmation(context, subject({ requiresConfirmation: true }))).toBe(true);
      }
    });

    it('is true for a mutating tool on a custom channel with require_confirmation_for_mutating', () => {
      const gate = new PolicyGate();
      gate.setChannelPolicy('chat', { require_confirmation_for_mutating: true });
      expect(gate.requiresConfirmation(new ToolContext({ channel: 'chat' }), subject({ mutating: true }))).toBe(true);
      expect(gate.requiresConfirmation(ToolContext.cli(), subject({ mutating: true }))).toBe(false);
    });
  });

  describe('setChannelPolicy', () => {
    it('replaces the policy wholesale and registers the channel', () => {
      const logger = new RecordingLogger();
      const gate = new PolicyGate({ logger });
      gate.setChannelPolicy('web', { block_mutating: true });
      expect(gate.channelPolicy('web')).toEqual({ block_mutating: true });
      // require_auth is gone: replaced, not merged.
      expect(sync(gate.authorize(ToolContext.web(null), subject())).allowed).toBe(true);
      gate.setChannelPolicy('brand-new', { allow_all: true });
      expect(gate.hasChannelPolicy('brand-new')).toBe(true);
      gate.authorize(new ToolContext({ channel: 'brand-new' }), subject());
      expect(logger.lines).toEqual([]);
    });

    it.each([
      ['', { allow_all: true }, /non-empty channel/],
      ['api', null, /must be an object/],
      ['web', 5, /The policy for channel 'web' must be an object/],
      ['web', 'allow_all', /must be an object/],
      [5, { allow_all: true }, /non-empty channel/],
      ['web', [], /must be an object/],
      ['api', { allow_all: 'yes' }, /'allow_all' .* must be a boolean, got string/],
      ['api', { require_auht: true }, /Unknown key 'require_auht'.*Known keys: allow_all, require_auth/],
      ['api', { confirmation_requires_signature: true }, /Unknown key 'confirmation_requires_signature'/],
    ])('throws INVALID_CHANNEL_POLICY and changes nothing for channel %j and policy %j', (channel, policy, message) => {
      const gate = new PolicyGate();
      gate.setChannelPolicy('api', { block_mutating: true });
      try {
        gate.setChannelPolicy(channel as string, policy as never);
        expect.unreachable();
      } catch (error) {
        expect(MilpaError.isInstance(error) && error.code).toBe('INVALID_CHANNEL_POLICY');
        expect((error as Error).message).toMatch(message);
      }
      expect(gate.channelPolicy('api')).toEqual({ block_mutating: true });
    });

    it('keeps a frozen copy so later changes to the caller object have no effect', () => {
      const gate = new PolicyGate();
      const policy: { block_mutating?: boolean } = { block_mutating: true };
      gate.setChannelPolicy('api', policy);
      policy.block_mutating = false;
      expect(gate.channelPolicy('api')).toEqual({ block_mutating: true });
      expect(Object.isFrozen(gate.channelPolicy('api'))).toBe(true);
    });
  });

  describe('channelPolicy', () => {
    it('returns the built-in policies and the fail-closed policy for unknown channels', () => {
      const gate = new PolicyGate();
      expect(gate.channelPolicy('web')).toEqual({ allow_all: false, require_auth: true });
      expect(gate.channelPolicy('cli')).toEqual({ allow_all: true });
      expect(gate.channelPolicy('inventado')).toEqual({ require_auth: true });
      expect(gate.channelPolicy('inventado')).toBe(FAIL_CLOSED_CHANNEL_POLICY);
      expect(gate.hasChannelPolicy('inventado')).toBe(false);
      expect(gate.hasChannelPolicy('telegram')).toBe(true);
    });
  });

  describe('constructor', () => {
    it('replaces built-in policies with the given channel policies', () => {
      const gate = new PolicyGate({ channelPolicies: { cli: { allow_all: false, block_mutating: true } } });
      expect(sync(gate.authorize(ToolContext.cli(), subject({ mutating: true }))).allowed).toBe(false);
    });

    it('throws and applies nothing when one of the channel policies is invalid', () => {
      expect(() => new PolicyGate({ channelPolicies: { ok: { allow_all: true }, bad: { allow_all: 1 as never } } })).toThrow(
        /must be a boolean/,
      );
    });
  });

  describe('setRuleProvider', () => {
    it('sets, reports and removes the provider', () => {
      const gate = new PolicyGate();
      const rules = provider(() => null);
      expect(gate.hasRuleProvider()).toBe(false);
      gate.setRuleProvider(rules);
      expect(gate.getRuleProvider()).toBe(rules);
      expect(gate.hasRuleProvider()).toBe(true);
      gate.setRuleProvider(null);
      expect(gate.getRuleProvider()).toBeNull();
    });

    it('throws INVALID_ARGUMENT for an object without findMatchingRule', () => {
      expect(() => new PolicyGate().setRuleProvider({} as PolicyRuleProvider)).toThrow(/findMatchingRule/);
    });

    it('throws INVALID_ARGUMENT and keeps the previous provider for a function carrying findMatchingRule', () => {
      const gate = new PolicyGate();
      const rules = provider(() => null);
      gate.setRuleProvider(rules);
      let code: unknown = null;
      try {
        gate.setRuleProvider(Object.assign(() => undefined, { findMatchingRule: () => null }) as never);
      } catch (error) {
        code = MilpaError.isInstance(error) ? error.code : 'NOT_MILPA';
      }
      expect(code).toBe('INVALID_ARGUMENT');
      expect(gate.getRuleProvider()).toBe(rules);
    });
  });

  describe('setLogger', () => {
    it('throws INVALID_ARGUMENT for a logger without warn', () => {
      expect(() => new PolicyGate().setLogger({} as Logger)).toThrow(MilpaError);
    });

    it.each<[string, unknown]>([
      ['only warn', { warn: () => undefined }],
      ['only error', { error: () => undefined }],
      ['a non-function warn', { warn: 'x', error: () => undefined }],
      ['null', null],
      ['a function', () => undefined],
      ['a function carrying warn and error', Object.assign(() => undefined, { warn: () => undefined, error: () => undefined })],
    ])('throws INVALID_ARGUMENT and keeps the previous logger for a logger with %s', (_case, logger) => {
      const kept = new RecordingLogger();
      const gate = new PolicyGate({ logger: kept });
      let code: unknown = null;
      let message = '';
      try {
        gate.setLogger(logger as never);
      } catch (error) {
        code = MilpaError.isInstance(error) ? error.code : 'NOT_MILPA';
        message = (error as Error).message;
      }
      expect(code).toBe('INVALID_ARGUMENT');
      expect(message).toBe('PolicyGate logger must have warn() and error() methods.');
      gate.authorize(new ToolContext({ channel: 'nowhere', principal: 'p' }), subject());
      expect(kept.lines).toHaveLength(1);
    });

    it('accepts a logger with warn and error only and writes the warning through it', () => {
      const warn = vi.fn();
      const gate = new PolicyGate();
      gate.setLogger({ warn, error: vi.fn() } as unknown as Logger);
      gate.authorize(new ToolContext({ channel: 'nowhere', principal: 'p' }), subject());
      expect(warn).toHaveBeenCalledWith({ channel: 'nowhere' }, UNKNOWN_CHANNEL_WARNING('nowhere'));
    });
  });
});
