import { MilpaError, ToolContext, ToolResult, Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ApprovalSettings } from '../approval/approval-settings.js';
import { InMemoryApprovalStore } from '../approval/in-memory-approval-store.js';
import { ToolAuditLogger } from '../audit/tool-audit-logger.js';
import { ConfirmationTokenStore } from '../confirmation/confirmation-token-store.js';
import { PolicyGate } from '../policy/policy-gate.js';
import { SchemaValidator } from '../validation/schema-validator.js';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { EXECUTED_BY_HANDLER } from './call-outcomes.js';
import { freezeArgs } from './freeze-args.js';
import { PipelineCall, type ToolCallOptions } from './pipeline-call.js';
import { PipelineRunner } from './pipeline-runner.js';
import { PipelineServices } from './pipeline-services.js';
import type { RegisteredTool } from './registered-tool.js';
import { IdempotencySettings } from '../idempotency/idempotency-settings.js';
import { InMemoryIdempotencyStore } from '../idempotency/in-memory-idempotency-store.js';
import { STOP, isPlainCall, runStage, type Stage, type StageVerdict } from './stage.js';
import { BUILT_IN_STAGES } from './stage-list.js';
import { InvocationStepKind } from '../inspection/invocation-step-kind.js';
import { RegistryWiring } from '../inspection/registry-wiring.js';
import { DEFAULT_CHANNEL_POLICIES } from '../policy/channel-policy.js';
import { InMemoryInvocationHistoryStore } from '../invocation/in-memory-invocation-history-store.js';
import { InvocationRuleSet } from '../invocation/invocation-rule-set.js';

function services(logger = new RecordingLogger()) {
  const tools = new Map<string, RegisteredTool>();
  const definition = defineTool({ name: 't', description: 'd', input: Type.Object({}), handler: () => 'ok' });
  tools.set('t', { definition: definition as never, validate: null, freezeArgs, clamps: null, rateLimitKey: null });
  return new PipelineServices({
    tools,
    logger,
    dispatcher: null,
    gate: new PolicyGate({ logger }),
    validator: new SchemaValidator(),
    confirmationStore: new ConfirmationTokenStore(),
    audit: new ToolAuditLogger(logger),
    rateLimiter: null,
    rateLimit: { windowSeconds: 60, maxTokens: 100, cost: 1, mutatingCost: 5 },
    exposeErrorMessages: true,
    invocation: new InvocationRuleSet([], [], new InMemoryInvocationHistoryStore(), 900_000),
    tidyArguments: false,
    maxResultChars: 10_000,
    approvals: new ApprovalSettings({ gate: null, gates: {}, store: new InMemoryApprovalStore(), ttlSeconds: 60 }),
    idempotency: new IdempotencySettings({ store: new InMemoryIdempotencyStore(), retentionSeconds: 60, leaseSeconds: 60 }),
  });
}

function stage(
  name: string,
  run: (call: PipelineCall) => StageVerdict,
  phase: 'gate' | 'exit' = 'gate',
): Extract<Stage, { needs: 'call' }> {
  return { name, phase, needs: 'call', collaborator: `${name} collaborator`, refusesOnAbort: true, run, describe: () => [] };
}

const answer = stage('answer', (call) => call.end(ToolResult.success('answered', null, call.meta()), EXECUTED_BY_HANDLER));
const exit = stage('exit', () => undefined, 'exit');

function newCall(logger?: RecordingLogger, signal?: AbortSignal) {
  return new PipelineCall(services(logger), 't', {}, ToolContext.cli(), signal === undefined ? undefined : { signal }, performance.now());
}

describe('PipelineRunner', () => {
  describe('run', () => {
    it('answers synchronously, without a promise, when every stage is synchronous', () => {
      const result = new PipelineRunner([stage('pass', () => undefined), answer, exit]).run(newCall());
      expect(result).toBeInstanceOf(ToolResult);
      expect((result as ToolResult).data).toBe('answered');
    });

    it('continues after a stage that answers with a promise, and runs the rest in order', async () => {
      const order: string[] = [];
      const runner = new PipelineRunner([
        stage('a', () => void order.push('a')),
        stage('b', () => Promise.resolve().then(() => void order.push('b'))),
        stage('c', (call) => {
          order.push('c');
          return answer.run(call);
        }),
        stage('x', () => void order.push('x'), 'exit'),
      ]);
      const result = await runner.run(newCall());
      expect(order).toEqual(['a', 'b', 'c', 'x']);
      expect(result.data).toBe('answered');
    });

    it('stops at the first stage that ends the call and still runs the exits', () => {
      const order: string[] = [];
      const runner = new PipelineRunner([
        answer,
        stage('never', () => void order.push('never')),
        stage('x', () => void order.push('x'), 'exit'),
      ]);
      runner.run(newCall());
      expect(order).toEqual(['x']);
    });

    it.each([
      [
        'throws',
        () => {
          throw new Error('boom');
        },
      ],
      ['rejects', () => Promise.reject(new Error('boom'))],
      ['answers something that is not a verdict', () => 'yes' as unknown as StageVerdict],
    ])('refuses the call fail-closed, naming the collaborator, when a gate %s', async (_label, run) => {
      const after: string[] = [];
      const runner = new PipelineRunner([stage('broken', run), stage('later', () => void after.push('later')), answer, exit]);
      const result = await runner.run(newCall());
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toMatch(/^Tool call refused: the broken collaborator failed \(fail-closed\)/);
      expect(after).toEqual([]);
    });

    it('refuses with TIMEOUT when the caller aborts while a gate waits', async () => {
      const controller = new AbortController();
      const runner = new PipelineRunner([stage('stall', () => new Promise(() => undefined)), answer, exit]);
      const pending = runner.run(newCall(undefined, controller.signal));
      controller.abort();
      const result = await pending;
      expect(result.meta['code']).toBe('TIMEOUT');
    });

    it('never changes a settled result when an exit stage throws or rejects, and logs it', async () => {
      const logger = new RecordingLogger();
      const runner = new PipelineRunner([
        answer,
        stage(
          'thrower',
          () => {
            throw new Error('exit bug');
          },
          'exit',
        ),
        stage('rejecter', () => Promise.reject(new Error('late bug')), 'exit'),
      ]);
      const result = await runner.run(newCall(logger));
      expect(result.data).toBe('answered');
      expect(logger.messages('error').filter((line) => line.includes('failed after the call settled'))).toHaveLength(2);
    });

    it('refuses fail-closed when no gate ends the call', () => {
      const result = new PipelineRunner([stage('pass', () => undefined), exit]).run(newCall()) as ToolResult;
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
    });
  });

  describe('plain calls', () => {
    function idleStage(ran: string[]): Extract<Stage, { needs: 'call' }> {
      return { ...stage('idle', () => void ran.push('idle')), idleForPlainCall: () => true };
    }

    function callWith(context: ToolContext, options?: ToolCallOptions) {
      const registry = services();
      return { registry, call: new PipelineCall(registry, 't', {}, context, options, performance.now()) };
    }

    it('leaves a stage idle for plain calls out of a plain call', () => {
      const ran: string[] = [];
      const { registry, call } = callWith(ToolContext.cli());
      const result = new PipelineRunner([idleStage(ran), answer, exit], registry).run(call) as ToolResult;
      expect(result.data).toBe('answered');
      expect(ran).toEqual([]);
    });

    it.each([
      ['an idempotency key', ToolContext.cli(), { idempotencyKey: 'k' }],
      ['a confirmation token', ToolContext.cli(), { confirmToken: 't' }],
      ['an approval id', ToolContext.cli(), { approvalId: 'a' }],
      ['a null confirmation token', ToolContext.cli(), { confirmToken: null as never }],
      ['a run', new ToolContext({ principal: 'p', channel: 'cli', runId: 'run_1' }), undefined],
      ['plan mode', new ToolContext({ principal: 'p', channel: 'cli', mode: 'plan' }), undefined],
    ] as const)('runs that stage for a call with %s', (_what, context, options) => {
      const ran: string[] = [];
      const { registry, call } = callWith(context, options);
      new PipelineRunner([idleStage(ran), answer, exit], registry).run(call);
      expect(ran).toEqual(['idle']);
    });

    it('runs every stage when the runner is built without the registry it serves', () => {
      const ran: string[] = [];
      new PipelineRunner([idleStage(ran), answer, exit]).run(newCall());
      expect(ran).toEqual(['idle']);
    });
  });

  describe('constructor', () => {
    it('throws INVALID_ARGUMENT when the list has no exit stage', () => {
      expect(() => new PipelineRunner([answer])).toThrow(MilpaError);
    });
  });
});

describe('BUILT_IN_STAGES', () => {
  it('describes itself, stage by stage, in exactly the order of InvocationStepKind', () => {
    const subject = {
      tool: defineTool({ name: 't', description: 'd', handler: () => 1 }) as never,
      context: ToolContext.cli(),
      wiring: new RegistryWiring(true, true, true),
      policy: new PolicyGate(),
      channelPolicy: DEFAULT_CHANNEL_POLICIES['cli']!,
    };
    expect(BUILT_IN_STAGES.flatMap((builtIn) => builtIn.describe(subject).map((step) => step.kind))).toEqual(
      InvocationStepKind.inspectionOrder(),
    );
  });

  it('declares a stage idle for plain calls only where its run answers undefined and leaves a plain call untouched', () => {
    const registry = services();
    const idle = BUILT_IN_STAGES.filter((builtIn) => builtIn.idleForPlainCall?.(registry) === true);
    expect(idle.map((builtIn) => builtIn.name)).toEqual(['tidy', 'plan_mode', 'rules_replay', 'history']);
    const call = new PipelineCall(registry, 't', {}, ToolContext.cli(), undefined, performance.now());
    expect(isPlainCall(call)).toBe(true);
    call.entry = registry.tools.get('t') ?? null;
    call.input = {};
    call.args = freezeArgs({});
    call.end(ToolResult.success('ok', null, call.meta()), EXECUTED_BY_HANDLER);
    const before = { ...call };
    for (const builtIn of idle) {
      expect(runStage(builtIn, call), builtIn.name).toBeUndefined();
      expect({ ...call }, builtIn.name).toEqual(before);
    }
  });

  it('ends with the exit stages, cap_result, idempotency_record, history, events then audit, after every gate', () => {
    expect(BUILT_IN_STAGES.map((builtIn) => builtIn.phase).lastIndexOf('gate')).toBe(BUILT_IN_STAGES.length - 6);
    expect(BUILT_IN_STAGES.slice(-5).map((builtIn) => builtIn.name)).toEqual([
      'cap_result',
      'idempotency_record',
      'history',
      'events',
      'audit',
    ]);
    expect(STOP).toBeTypeOf('symbol');
  });
});
