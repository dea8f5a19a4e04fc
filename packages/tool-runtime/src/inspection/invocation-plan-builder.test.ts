import { MilpaError, ToolContext, Type, defineTool, type AnyToolDefinition } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { FAIL_CLOSED_CHANNEL_POLICY, DEFAULT_CHANNEL_POLICIES, type ChannelPolicy } from '../policy/channel-policy.js';
import { PolicyGate } from '../policy/policy-gate.js';
import type { InspectablePolicy } from './inspectable-policy.js';
import { InvocationPlanBuilder } from './invocation-plan-builder.js';
import { RegistryWiring } from './registry-wiring.js';

/** A read-only gate over the default policies, with spies to prove the builder only reads. */
function defaultGate(options: { ruleProvider?: boolean; extra?: Record<string, ChannelPolicy> } = {}) {
  const policies: Record<string, ChannelPolicy> = { ...DEFAULT_CHANNEL_POLICIES, ...options.extra };
  return {
    channelPolicy: vi.fn((channel: string) => (Object.hasOwn(policies, channel) ? policies[channel]! : FAIL_CLOSED_CHANNEL_POLICY)),
    hasRuleProvider: vi.fn(() => options.ruleProvider === true),
    authorize: vi.fn(() => {
      throw new Error('inspection must never authorize');
    }),
    requiresConfirmation: vi.fn(() => {
      throw new Error('inspection must never evaluate a live call');
    }),
  };
}

const noWiring = new RegistryWiring(false, false, false);
const fullWiring = new RegistryWiring(true, true, true);

function settingsTool(handler = vi.fn()): AnyToolDefinition {
  return defineTool({
    name: 'settings_update',
    description: 'Update the site settings.',
    input: Type.Object({ siteName: Type.String() }),
    handler,
  });
}

function mutatingTool(): AnyToolDefinition {
  return defineTool({ name: 'verification_tool', description: 'Mutates without asking.', mutating: true, handler: () => null });
}

type StepRow = [kind: string, role: string, presence: string, blocking: boolean, mutates: boolean, wraps: string | null];

function rows(tool: AnyToolDefinition, context: ToolContext, wiring = noWiring): StepRow[] {
  return new InvocationPlanBuilder(defaultGate())
    .build(tool, context, wiring)
    .steps.map((step) => [step.kind, step.role, step.presence, step.blocking, step.mutates, step.wraps]);
}

describe('InvocationPlanBuilder', () => {
  describe('constructor', () => {
    it('throws INVALID_ARGUMENT when the policy lacks channelPolicy or hasRuleProvider', () => {
      expect(() => new InvocationPlanBuilder({} as InspectablePolicy)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      expect(() => new InvocationPlanBuilder(null as never)).toThrow(MilpaError);
    });
  });

  describe('build', () => {
    it('returns schemaVersion 1.0, the channel, absent wiring and 20 steps when built for web with nothing wired', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.web('u', []), noWiring);
      expect(plan.schemaVersion).toBe('1.0');
      expect(plan.operation).toBe('settings_update');
      expect(plan.channel).toBe('web');
      expect(plan.wiring).toEqual({ rateLimiter: 'absent', dispatcher: 'absent', ruleProvider: 'absent' });
      expect(plan.steps).toHaveLength(20);
      expect(plan.context).toEqual({ actor: 'u', scopes: [], mode: 'execute' });
    });

    it('follows the reference table for a plain tool on web when nothing is wired', () => {
      expect(rows(settingsTool(), ToolContext.web('u', []))).toEqual([
        ['resolve', 'guard', 'active', true, false, null],
        ['tidy', 'transform', 'skipped', false, false, null],
        ['clamp', 'transform', 'skipped', false, false, null],
        ['validate', 'guard', 'active', true, false, null],
        ['authorize', 'guard', 'active', true, false, null],
        ['idempotency', 'branch', 'conditional', true, false, null],
        ['rules', 'guard', 'skipped', false, false, null],
        ['rate_limit', 'guard', 'skipped', true, false, null],
        ['plan_mode', 'branch', 'conditional', false, false, null],
        ['confirm', 'branch', 'dormant', false, false, null],
        ['approve', 'branch', 'skipped', false, false, null],
        ['rules_replay', 'guard', 'skipped', false, false, null],
        ['emit_executing', 'hook', 'skipped', true, false, null],
        ['execute', 'execution', 'active', true, false, null],
        ['contain_exception', 'boundary', 'active', false, false, 'execute'],
        ['cap_result', 'transform', 'active', false, false, null],
        ['idempotency_record', 'outcome', 'conditional', false, false, null],
        ['history', 'outcome', 'skipped', false, false, null],
        ['events', 'hook', 'skipped', false, false, null],
        ['audit', 'outcome', 'active', false, false, null],
      ]);
    });

    it('names the channel in authorize and mentions resolve in audit when built for web', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.web('u', []), noWiring);
      expect(plan.getStep('authorize').source).toContain('web');
      expect(plan.getStep('audit').source).toContain('resolve');
    });

    it('serializes the whole plan with the published key order when stringified', () => {
      const json = JSON.parse(
        JSON.stringify(new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.web('u', ['read']), fullWiring)),
      );
      expect(Object.keys(json)).toEqual(['schemaVersion', 'operation', 'channel', 'context', 'assumptions', 'wiring', 'steps']);
      expect(json.context).toEqual({ actor: 'u', scopes: ['read'], mode: 'execute' });
      expect(json.wiring).toEqual({ rateLimiter: 'present', dispatcher: 'present', ruleProvider: 'present' });
      expect(json.steps).toHaveLength(20);
      for (const step of json.steps) {
        expect(Object.keys(step)).toEqual(['kind', 'role', 'presence', 'blocking', 'mutates', 'wraps', 'source']);
      }
    });
  });

  describe('build: authorize', () => {
    it('states require_auth, allow_all, the missing scopes and the missing rule provider when built for web', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.web('u', []), noWiring);
      expect(plan.getStep('authorize').source).toBe(
        "channel 'web': require_auth=true, allow_all=false, block_mutating=false; " +
          'tool has no declared scopes; rule provider: absent, rules skipped',
      );
    });

    it('says honestly what allow_all skips when built for cli', () => {
      const source = new InvocationPlanBuilder(defaultGate())
        .build(settingsTool(), ToolContext.cli(), noWiring)
        .getStep('authorize').source;
      expect(source).toContain("channel 'cli': require_auth=false, allow_all=true");
      expect(source).toContain(
        'allow_all only skips the final channel-policy step (block_mutating); require_auth, scopes, rules and confirmation still apply',
      );
      expect(source).not.toMatch(/never blocks|god-mode/);
    });

    it('lists the tool scopes and a consulted rule provider when both exist', () => {
      const tool = defineTool({ name: 'notes_write', description: 'Write', scopes: ['notes:write', 'notes:admin'], handler: () => null });
      const source = new InvocationPlanBuilder(defaultGate({ ruleProvider: true }))
        .build(tool, ToolContext.web('u', ['notes:write']), noWiring)
        .getStep('authorize').source;
      expect(source).toContain('tool requires one of the scopes: notes:write, notes:admin');
      expect(source).toContain('rule provider: present, consulted');
    });

    it('shows block_mutating=true when the channel policy blocks mutating tools', () => {
      const gate = defaultGate({ extra: { kiosk: { require_auth: false, block_mutating: true } } });
      const source = new InvocationPlanBuilder(gate)
        .build(mutatingTool(), new ToolContext({ principal: 'k', channel: 'kiosk' }), noWiring)
        .getStep('authorize').source;
      expect(source).toContain("channel 'kiosk': require_auth=false, allow_all=false, block_mutating=true");
    });
  });

  describe('build: confirm', () => {
    it('is conditional, a blocking branch naming require_confirmation_for_mutating when a mutating tool runs on telegram', () => {
      const confirm = new InvocationPlanBuilder(defaultGate())
        .build(mutatingTool(), ToolContext.telegram('chat-1'), noWiring)
        .getStep('confirm');
      expect(confirm.presence).toBe('conditional');
      expect(confirm.role).toBe('branch');
      expect(confirm.blocking).toBe(true);
      expect(confirm.source).toContain('require_confirmation_for_mutating');
      expect(confirm.source).toContain('tool.mutating');
    });

    it('is dormant and non-blocking when the channel confirms mutating tools but the tool does not mutate', () => {
      const confirm = new InvocationPlanBuilder(defaultGate())
        .build(settingsTool(), ToolContext.telegram('chat-1'), noWiring)
        .getStep('confirm');
      expect(confirm.presence).toBe('dormant');
      expect(confirm.blocking).toBe(false);
      expect(confirm.source).toBe('channel policy require_confirmation_for_mutating exists, but mutating=false makes it impossible');
    });

    it('is conditional on any channel when the tool itself requires confirmation', () => {
      const tool = defineTool({ name: 'purge', description: 'Purge', requiresConfirmation: true, handler: () => null });
      const confirm = new InvocationPlanBuilder(defaultGate()).build(tool, ToolContext.web('u', []), noWiring).getStep('confirm');
      expect(confirm.presence).toBe('conditional');
      expect(confirm.blocking).toBe(true);
      expect(confirm.source).toContain('tool.requiresConfirmation');
    });

    it('is dormant and says neither rule applies when a mutating tool runs on web', () => {
      const confirm = new InvocationPlanBuilder(defaultGate()).build(mutatingTool(), ToolContext.web('u', []), noWiring).getStep('confirm');
      expect(confirm.presence).toBe('dormant');
      expect(confirm.source).toBe('neither tool.requiresConfirmation nor channel policy require_confirmation_for_mutating applies');
    });
  });

  describe('build: assumptions', () => {
    it('predicts the denial when the web actor is anonymous (principal null)', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(
        settingsTool(),
        new ToolContext({ principal: null, channel: 'web' }),
        noWiring,
      );
      expect(plan.assumptions).toEqual(['anonymous actor; web requires auth → authorize would deny']);
      expect(plan.context.actor).toBeNull();
    });

    it('predicts the denial when an mcp caller has no principal, without inventing one', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.mcp('req-1', null, []), noWiring);
      expect(plan.assumptions).toEqual(['anonymous actor; mcp requires auth → authorize would deny']);
      expect(plan.context.actor).toBeNull();
      expect(JSON.parse(JSON.stringify(plan)).context.actor).toBeNull();
    });

    it('treats an empty principal as anonymous when the channel requires auth', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(
        settingsTool(),
        new ToolContext({ principal: '', channel: 'mcp' }),
        noWiring,
      );
      expect(plan.assumptions).toEqual(['anonymous actor; mcp requires auth → authorize would deny']);
    });

    it.each([
      ["the principal is '0'", new ToolContext({ principal: '0', channel: 'web' })],
      ['the principal is the mcp placeholder', ToolContext.mcp('req-1')],
      ['the channel does not require auth', new ToolContext({ principal: null, channel: 'telegram' })],
      ['the channel is cli', ToolContext.cli()],
    ])('adds no assumption when %s', (_label, context) => {
      expect(new InvocationPlanBuilder(defaultGate()).build(settingsTool(), context, noWiring).assumptions).toEqual([]);
    });

    it('says the fail-closed policy is in effect when the channel has no registered policy', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(
        settingsTool(),
        new ToolContext({ principal: 'u', channel: 'sms' }),
        noWiring,
      );
      expect(plan.assumptions).toEqual(["channel 'sms' has no registered policy; the fail-closed policy (require_auth) is in effect"]);
    });

    it('adds both assumptions, anonymous first, when an anonymous caller uses an unregistered channel', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), new ToolContext({ channel: 'unknown' }), noWiring);
      expect(plan.assumptions).toEqual([
        'anonymous actor; unknown requires auth → authorize would deny',
        "channel 'unknown' has no registered policy; the fail-closed policy (require_auth) is in effect",
      ]);
    });

    it('asks hasChannelPolicy when the policy offers it', () => {
      const gate = { ...defaultGate(), hasChannelPolicy: vi.fn((channel: string) => channel !== 'web') };
      const web = new InvocationPlanBuilder(gate).build(settingsTool(), ToolContext.web('u', []), noWiring);
      const sms = new InvocationPlanBuilder(gate).build(settingsTool(), new ToolContext({ principal: 'u', channel: 'sms' }), noWiring);
      expect(web.assumptions).toEqual(["channel 'web' has no registered policy; the fail-closed policy (require_auth) is in effect"]);
      expect(sms.assumptions).toEqual([]);
      expect(gate.hasChannelPolicy).toHaveBeenCalledWith('web');
    });
  });

  describe('build: wiring and rate costs', () => {
    it('activates rate_limit and emit_executing when a limiter and a dispatcher are wired', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.web('u', []), fullWiring);
      expect(plan.getStep('rate_limit').presence).toBe('active');
      expect(plan.getStep('emit_executing').presence).toBe('active');
      expect(plan.getStep('emit_executing').source).toContain('dispatcher present');
    });

    it('states the default cost 5 when a mutating tool meets a wired limiter', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(mutatingTool(), ToolContext.web('u', []), fullWiring);
      expect(plan.getStep('rate_limit').source).toBe(
        'host wiring: rateLimiter present; cost mutating ? 5 : 1 (mutating=true → cost 5); key channel:principal:tool',
      );
    });

    it('states the default cost 1 and the absent limiter when nothing is wired', () => {
      const plan = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.web('u', []), noWiring);
      expect(plan.getStep('rate_limit').source).toContain('rateLimiter absent');
      expect(plan.getStep('rate_limit').source).toContain('(mutating=false → cost 1)');
      expect(plan.getStep('emit_executing').source).toContain('dispatcher absent');
    });

    it('uses the configured costs when the registry charges differently', () => {
      const wiring = new RegistryWiring(true, false, false, { call: 2, mutating: 10 });
      const builder = new InvocationPlanBuilder(defaultGate());
      expect(builder.build(mutatingTool(), ToolContext.web('u', []), wiring).getStep('rate_limit').source).toContain(
        'cost mutating ? 10 : 2 (mutating=true → cost 10)',
      );
      expect(builder.build(settingsTool(), ToolContext.web('u', []), wiring).getStep('rate_limit').source).toContain(
        '(mutating=false → cost 2)',
      );
    });

    it('reports the wiring flags, not the policy, in plan.wiring when they differ', () => {
      const plan = new InvocationPlanBuilder(defaultGate({ ruleProvider: true })).build(settingsTool(), ToolContext.web('u', []), noWiring);
      expect(plan.wiring.ruleProvider).toBe('absent');
      expect(plan.getStep('authorize').source).toContain('rule provider: present, consulted');
    });
  });

  describe('build: validate and clamp', () => {
    it('skips validate when the tool has an empty schema', () => {
      const validate = new InvocationPlanBuilder(defaultGate())
        .build(mutatingTool(), ToolContext.web('u', []), noWiring)
        .getStep('validate');
      expect(validate.presence).toBe('skipped');
      expect(validate.source).toContain('empty');
    });

    it('keeps validate skipped when the schema only carries annotations', () => {
      const tool = defineTool({
        name: 'annotated',
        description: 'd',
        input: Type.Object({}, { description: 'no args', title: 'None' }),
        handler: () => null,
      });
      expect(new InvocationPlanBuilder(defaultGate()).build(tool, ToolContext.cli(), noWiring).getStep('validate').presence).toBe(
        'skipped',
      );
    });

    it('activates validate when an empty schema still forbids additional properties', () => {
      const tool = defineTool({
        name: 'strict',
        description: 'd',
        input: Type.Object({}, { additionalProperties: false }),
        handler: () => null,
      });
      expect(new InvocationPlanBuilder(defaultGate()).build(tool, ToolContext.cli(), noWiring).getStep('validate').presence).toBe('active');
    });

    it('activates clamp with mutates true and lists the clamps when the tool has them', () => {
      const tool = defineTool({
        name: 'list_notes',
        description: 'List',
        input: Type.Object({ page: Type.Integer(), title: Type.String() }),
        clamps: { page: [1, 100], title: { maxLength: 80 } },
        handler: () => null,
      });
      const clamp = new InvocationPlanBuilder(defaultGate()).build(tool, ToolContext.cli(), noWiring).getStep('clamp');
      expect(clamp.presence).toBe('active');
      expect(clamp.mutates).toBe(true);
      expect(clamp.blocking).toBe(false);
      expect(clamp.source).toBe(
        'tool clamps: page {min=1, max=100}, title {maxLength=80}; applied before validation, they coerce and never reject',
      );
    });
  });

  describe('build: plan mode, execute, boundary and audit', () => {
    it("reads context.mode == 'plan' with the actual mode when built", () => {
      const builder = new InvocationPlanBuilder(defaultGate());
      expect(builder.build(settingsTool(), ToolContext.cli(), noWiring).getStep('plan_mode').source).toContain(
        "context.mode == 'plan'; actual: execute",
      );
      const plan = builder.build(settingsTool(), ToolContext.cli().asPlan(), noWiring);
      expect(plan.getStep('plan_mode').source).toContain("context.mode == 'plan'; actual: plan");
      expect(plan.context.mode).toBe('plan');
    });

    it('describes the handler call and the soft default timeout when the tool has no hard timeout', () => {
      const execute = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.cli(), noWiring).getStep('execute');
      expect(execute.source).toContain('handler(args, { context, signal, caller }); no _ctx in args');
      expect(execute.source).toContain('timeout 30000 ms, soft');
      expect(execute.mutates).toBe(false);
    });

    it('describes a hard timeout and mutates true when the tool opts into both', () => {
      const tool = defineTool({ name: 'slow', description: 'd', mutating: true, timeoutMs: 5000, hardTimeout: true, handler: () => null });
      const execute = new InvocationPlanBuilder(defaultGate()).build(tool, ToolContext.cli(), noWiring).getStep('execute');
      expect(execute.source).toContain('timeout 5000 ms, hard: TIMEOUT is returned at the deadline');
      expect(execute.mutates).toBe(true);
    });

    it('maps any throw to INTERNAL_ERROR in the boundary source', () => {
      const boundary = new InvocationPlanBuilder(defaultGate())
        .build(settingsTool(), ToolContext.cli(), noWiring)
        .getStep('contain_exception');
      expect(boundary.wraps).toBe('execute');
      expect(boundary.source).toContain('INTERNAL_ERROR');
    });

    it('lists every terminal path as audited when built', () => {
      const source = new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.cli(), noWiring).getStep('audit').source;
      expect(source).toContain('every terminal path');
      for (const path of [
        'resolve-miss',
        'validation-failure',
        'authorization-failure',
        'rate-limit',
        'plan-mode',
        'confirmation-request',
        'invalid-token',
        'veto',
        'cache-hit',
        'execute-success',
        'execute-failure',
      ]) {
        expect(source).toContain(path);
      }
      expect(source).not.toMatch(/does not audit|NOT audit/i);
    });
  });

  describe('build: side effects', () => {
    it('never runs the handler, authorizes or evaluates a live call when building', () => {
      const handler = vi.fn();
      const gate = defaultGate({ ruleProvider: true });
      const context = new ToolContext({ principal: null, channel: 'telegram' });
      new InvocationPlanBuilder(gate).build(settingsTool(handler), context, fullWiring);
      expect(handler).not.toHaveBeenCalled();
      expect(gate.authorize).not.toHaveBeenCalled();
      expect(gate.requiresConfirmation).not.toHaveBeenCalled();
      expect(gate.channelPolicy).toHaveBeenCalledWith('telegram');
      expect(context.principal).toBeNull();
    });

    it('throws INVALID_ARGUMENT when the wiring is not a RegistryWiring', () => {
      const build = () =>
        new InvocationPlanBuilder(defaultGate()).build(settingsTool(), ToolContext.cli(), {
          hasRateLimiter: true,
        } as unknown as RegistryWiring);
      expect(build).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });

    it('throws INVALID_ARGUMENT when the tool is not a definition', () => {
      expect(() => new InvocationPlanBuilder(defaultGate()).build({} as AnyToolDefinition, ToolContext.cli(), noWiring)).toThrow(
        MilpaError,
      );
    });
  });

  describe('build: with the runtime PolicyGate', () => {
    it('reads the real gate structurally when the default policies are in force', () => {
      const builder = new InvocationPlanBuilder(new PolicyGate());
      expect(builder.build(mutatingTool(), ToolContext.telegram(42), noWiring).getStep('confirm').presence).toBe('conditional');
      expect(builder.build(settingsTool(), ToolContext.cli(), noWiring).getStep('authorize').source).toContain('allow_all=true');
      expect(builder.build(settingsTool(), ToolContext.mcp('r1', null), noWiring).assumptions).toEqual([
        'anonymous actor; mcp requires auth → authorize would deny',
      ]);
    });

    it('follows host channel policies and the rule provider of the real gate', () => {
      const gate = new PolicyGate({
        channelPolicies: { sms: { require_auth: true, require_confirmation_for_mutating: true } },
        ruleProvider: { findMatchingRule: () => null },
      });
      const plan = new InvocationPlanBuilder(gate).build(mutatingTool(), new ToolContext({ principal: 'u', channel: 'sms' }), noWiring);
      expect(plan.assumptions).toEqual([]);
      expect(plan.getStep('confirm').presence).toBe('conditional');
      expect(plan.getStep('authorize').source).toContain('rule provider: present, consulted');
      const unknown = new InvocationPlanBuilder(gate).build(mutatingTool(), new ToolContext({ principal: 'u', channel: 'fax' }), noWiring);
      expect(unknown.assumptions).toEqual(["channel 'fax' has no registered policy; the fail-closed policy (require_auth) is in effect"]);
    });
  });
});
