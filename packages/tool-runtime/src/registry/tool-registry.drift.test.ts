// The drift test: the InvocationPlan's step order must be the order call() really runs. Every
// stage is observed through a real collaborator (a validator, the gate, the limiter, the store,
// listeners, the handler, the idempotency store, the logger), never through the plan itself — except tidy, the rules
// stages, the result cap and the history exit, which have nothing to call here: their run() is observed.
import { EventDispatcher } from '@milpa/events';
import {
  ApprovalVerdict,
  RateLimitResult,
  ToolContext,
  Type,
  defineTool,
  type JsonSchema,
  type LogContext,
  type Logger,
} from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmationTokenStore } from '../confirmation/confirmation-token-store.js';
import { InMemoryIdempotencyStore } from '../idempotency/in-memory-idempotency-store.js';
import { InvocationStepKind } from '../inspection/invocation-step-kind.js';
import { capResultStage } from '../pipeline/stages/cap-result-stage.js';
import { historyStage } from '../pipeline/stages/history-stage.js';
import { tidyStage } from '../pipeline/stages/tidy-stage.js';
import { rulesReplayStage } from '../pipeline/stages/rules-replay-stage.js';
import { rulesStage } from '../pipeline/stages/rules-stage.js';
import { SchemaValidator, type CompiledValidator } from '../validation/schema-validator.js';
import { ToolRegistry } from './tool-registry.js';

function harness(handler: () => unknown) {
  const trace: string[] = [];
  const mark = (kind: string) => {
    trace.push(kind);
  };

  class TracingValidator extends SchemaValidator {
    override compile(schema: JsonSchema): CompiledValidator {
      const compiled = super.compile(schema);
      return (args) => {
        mark('validate');
        return compiled(args);
      };
    }

    override applyClamps(...params: Parameters<SchemaValidator['applyClamps']>) {
      mark('clamp');
      return super.applyClamps(...params);
    }
  }

  class TracingStore extends ConfirmationTokenStore {
    override create(...params: Parameters<ConfirmationTokenStore['create']>) {
      mark('confirm');
      return super.create(...params);
    }

    override consume(...params: Parameters<ConfirmationTokenStore['consume']>) {
      mark('confirm');
      return super.consume(...params);
    }
  }

  class TracingIdempotencyStore extends InMemoryIdempotencyStore {
    override begin(...params: Parameters<InMemoryIdempotencyStore['begin']>) {
      mark('idempotency');
      return super.begin(...params);
    }

    override complete(...params: Parameters<InMemoryIdempotencyStore['complete']>) {
      mark('idempotency_record');
      return super.complete(...params);
    }

    override release(...params: Parameters<InMemoryIdempotencyStore['release']>) {
      mark('idempotency_record');
      return super.release(...params);
    }
  }

  const auditing = (context: LogContext, message: string) => {
    // The execute stage's containment logs what the handler threw before anything else sees it.
    if (message.includes('threw exception')) mark('contain_exception');
    if ('audit' in context) mark('audit');
  };
  const logger: Logger = { debug: () => undefined, info: auditing, warn: auditing, error: auditing };
  const dispatcher = new EventDispatcher({ logger });
  const registry = new ToolRegistry({
    defaultContext: () => ToolContext.cli(),
    logger,
    dispatcher,
    validator: new TracingValidator(),
    confirmationStore: new TracingStore(),
    idempotencyStore: new TracingIdempotencyStore(),
    approvalGate: {
      check: () => {
        mark('approve');
        return ApprovalVerdict.allow();
      },
    },
    rateLimiter: {
      consume: () => {
        mark('rate_limit');
        return RateLimitResult.allowed(99);
      },
      getUsage: () => 0,
      reset: () => undefined,
    },
  });
  const gate = registry.getPolicyGate();
  const authorize = gate.authorize.bind(gate);
  vi.spyOn(gate, 'authorize').mockImplementation((...params) => {
    mark('authorize');
    return authorize(...params);
  });
  const isPlanMode = ToolContext.prototype.isPlanMode;
  vi.spyOn(ToolContext.prototype, 'isPlanMode').mockImplementation(function (this: ToolContext) {
    mark('plan_mode');
    return isPlanMode.call(this);
  });
  // The rules stages and the history exit have no collaborator wired here: their run() is observed.
  for (const stage of [tidyStage, rulesStage, rulesReplayStage, capResultStage, historyStage] as unknown as {
    name: string;
    run(call: unknown): unknown;
  }[]) {
    const run = stage.run.bind(stage);
    vi.spyOn(stage, 'run').mockImplementation((call) => {
      mark(stage.name);
      return run(call);
    });
  }
  dispatcher.subscribe('tool.executing', () => mark('emit_executing'));
  // Above the audit listener (priority 0): the events stage runs before the audit exit.
  dispatcher.subscribe('tool.failed', () => mark('events'), 100);
  registry.register(
    defineTool({
      name: 'publish',
      description: 'Publish a page',
      input: Type.Object({ page: Type.Integer() }),
      clamps: { page: [1, 10] },
      requiresConfirmation: true,
      mutating: true,
      handler: () => {
        mark('execute');
        return handler();
      },
    }),
  );
  return { registry, trace };
}

function firstOccurrences(trace: readonly string[]): string[] {
  return trace.filter((kind, index) => trace.indexOf(kind) === index);
}

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('call: the plan describes what call() runs', () => {
    it('runs every stage in inspectionOrder() when a confirmed call with an idempotency key executes and throws', async () => {
      const { registry, trace } = harness(() => {
        throw new Error('publish failed');
      });
      const first = await registry.call('publish', { page: 40 });
      trace.length = 0;
      const second = await registry.call('publish', { page: 40 }, undefined, {
        confirmToken: first.getConfirmToken() as string,
        idempotencyKey: 'publish-40',
      });
      expect(second.meta['code']).toBe('INTERNAL_ERROR');
      const plan = registry.inspect('publish', ToolContext.cli());
      const planned = plan?.steps.map((step) => step.kind) ?? [];
      expect(planned).toEqual(InvocationStepKind.inspectionOrder());
      // resolve has no collaborator to observe; it is pinned by the unknown-tool case below.
      expect(firstOccurrences(trace)).toEqual(planned.filter((kind) => kind !== 'resolve'));
    });

    it('stops right after plan_mode (then audits) in plan mode, never reaching confirm', async () => {
      const { registry, trace } = harness(() => 'ok');
      await registry.call('publish', { page: 4 }, ToolContext.cli().asPlan());
      expect(trace).toEqual([
        'tidy',
        'clamp',
        'validate',
        'authorize',
        'rules',
        'rate_limit',
        'plan_mode',
        'cap_result',
        'history',
        'audit',
      ]);
    });

    it('stops at confirm (then audits) on the first call of a confirmable tool', async () => {
      const { registry, trace } = harness(() => 'ok');
      await registry.call('publish', { page: 4 });
      // A plain call (no control value, no run, not plan mode) skips the stages idle for it: tidy
      // (tidying is off), plan_mode and history.
      expect(trace).toEqual(['clamp', 'validate', 'authorize', 'rules', 'rate_limit', 'confirm', 'cap_result', 'audit']);
    });

    it('walks every stage up to confirm when the call belongs to a run', async () => {
      const { registry, trace } = harness(() => 'ok');
      await registry.call('publish', { page: 4 }, new ToolContext({ principal: 'cli', channel: 'cli', scopes: ['*'], runId: 'run_1' }));
      expect(trace).toEqual([
        'tidy',
        'clamp',
        'validate',
        'authorize',
        'rules',
        'rate_limit',
        'plan_mode',
        'confirm',
        'cap_result',
        'history',
        'audit',
      ]);
    });

    it('resolves before anything else: an unknown tool reaches only the audit', async () => {
      const { registry, trace } = harness(() => 'ok');
      await registry.call('unpublish', { page: 4 });
      expect(trace).toEqual(['cap_result', 'audit']);
      trace.length = 0;
      await registry.call('unpublish', { page: 4 }, new ToolContext({ principal: 'cli', channel: 'cli', runId: 'run_1' }));
      expect(trace).toEqual(['cap_result', 'history', 'audit']);
    });
  });
});
