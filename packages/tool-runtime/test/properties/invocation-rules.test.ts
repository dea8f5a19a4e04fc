import { EventDispatcher } from '@milpa/events';
import {
  InvocationDecision,
  ToolContext,
  Type,
  defineTool,
  invocationTarget,
  type InvocationOutcome,
  type InvocationRule,
  type ToolResult,
} from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemoryInvocationHistoryStore } from '../../src/invocation/in-memory-invocation-history-store.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { SchemaValidator } from '../../src/validation/schema-validator.js';
import { RecordingLogger } from '../support/recording-logger.js';

const validator = new SchemaValidator();

/** Every argument value carries this marker, which no message, tool name or code contains by itself. */
const MARK = 'Zq';

/** What a call is made of: which tool, with which value, by whom, and whether the value is valid. */
interface PlannedCall {
  readonly tool: 'delete_note' | 'read_note' | 'admin_purge' | 'explode' | 'publish' | 'missing_tool';
  readonly value: string;
  readonly valid: boolean;
  readonly scoped: boolean;
  /** A rule denies, throws, or gives an argument as its reason when the value says so. */
  readonly ruleMood: 'allow' | 'deny' | 'throw' | 'leak_reason';
}

const plannedCall: fc.Arbitrary<PlannedCall> = fc.record({
  tool: fc.constantFrom('delete_note', 'read_note', 'admin_purge', 'explode', 'publish', 'missing_tool'),
  // Letters, digits and spaces: JSON writes them as they are, so a leak cannot hide behind an escape.
  value: fc.stringMatching(/^[A-Za-z0-9 ]{1,12}$/).map((text) => `${MARK}${text}${MARK}`),
  valid: fc.boolean(),
  scoped: fc.boolean(),
  ruleMood: fc.constantFrom('allow', 'allow', 'deny', 'throw', 'leak_reason'),
});

/** The rule that reads each call's intention from the mood table (keyed by the argument value). */
function moodyRule(moods: Map<string, PlannedCall['ruleMood']>): InvocationRule {
  return {
    identifier: 'moody',
    evaluate: ({ arguments: args }) => {
      const value = String(args['id']);
      switch (moods.get(value)) {
        case 'deny':
          return InvocationDecision.deny('moody_denial');
        case 'throw':
          throw new Error(`refusing ${value}`);
        case 'leak_reason':
          // A rule that tries to put the argument in its reason: outside the grammar, so rule_failed.
          return InvocationDecision.deny(value);
        default:
          return InvocationDecision.allow();
      }
    },
  };
}

function buildRegistry(moods: Map<string, PlannedCall['ruleMood']>) {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher();
  const events: unknown[] = [];
  dispatcher.subscribe('tool.*', (_name, payload) => {
    events.push(payload['event']);
  });
  const store = new InMemoryInvocationHistoryStore();
  const registry = new ToolRegistry({
    logger,
    dispatcher,
    validator,
    historyStore: store,
    rules: [moodyRule(moods)],
    targetResolvers: [{ resolve: ({ toolName }) => (toolName.endsWith('_note') ? invocationTarget('note', toolName.length) : null) }],
  });
  const input = Type.Object({ id: Type.String({ maxLength: 40 }) }, { additionalProperties: false });
  registry.register(
    defineTool({ name: 'delete_note', description: 'd', input, mutating: true, handler: ({ id }) => ({ deleted: id.length }) }),
  );
  registry.register(defineTool({ name: 'read_note', description: 'd', input, handler: () => 'text' }));
  registry.register(defineTool({ name: 'admin_purge', description: 'd', input, scopes: ['admin'], handler: () => 'purged' }));
  registry.register(
    defineTool({
      name: 'explode',
      description: 'd',
      input,
      handler: () => {
        throw new Error('handler failed');
      },
    }),
  );
  registry.register(defineTool({ name: 'publish', description: 'd', input, requiresConfirmation: true, handler: () => 'published' }));
  return { registry, store, logger, events };
}

/** The outcome a result stands for, read from the result alone. */
function outcomeOf(result: ToolResult): InvocationOutcome {
  const code = result.meta['code'];
  if (result.requiresConfirmation()) return 'confirmation_requested';
  if (result.success) return 'executed';
  if (code === 'TOOL_NOT_FOUND') return 'not_found';
  if (code === 'VALIDATION_ERROR') return 'validation_failed';
  if (code === 'FORBIDDEN') return 'rule' in result.meta ? 'invocation_denied' : 'auth_denied';
  if (code === 'INTERNAL_ERROR') return 'failed';
  throw new Error(`unexpected result ${JSON.stringify(result.toJSON())}`);
}

function argsOf(call: PlannedCall): Record<string, unknown> {
  return call.valid ? { id: call.value } : { id: call.value, extra: call.value };
}

describe('invocation rules (properties)', () => {
  it('records, for any sequence of calls in a run, exactly the sequence of their terminal outcomes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plannedCall, { minLength: 1, maxLength: 25 }), async (calls) => {
        const moods = new Map(calls.map((call) => [call.value, call.ruleMood] as const));
        const { registry, store } = buildRegistry(moods);
        const runId = await registry.startRun();
        const expected: { tool: string; outcome: InvocationOutcome }[] = [];
        for (const call of calls) {
          const context = new ToolContext({ principal: 'agent:1', channel: 'web', scopes: call.scoped ? ['admin'] : [], runId });
          const result = await registry.call(call.tool, argsOf(call), context);
          expected.push({ tool: call.tool, outcome: outcomeOf(result) });
        }
        const history = store.load(runId);
        expect(history?.complete).toBe(true);
        expect(history?.observations.map(({ tool, outcome }) => ({ tool, outcome }))).toEqual(expected);
      }),
      {
        numRuns: 60,
        examples: [
          [[{ tool: 'delete_note', value: `${MARK}a${MARK}`, valid: true, scoped: false, ruleMood: 'throw' }]],
          [[{ tool: 'admin_purge', value: `${MARK}b${MARK}`, valid: true, scoped: false, ruleMood: 'allow' }]],
          [[{ tool: 'publish', value: `${MARK}c${MARK}`, valid: true, scoped: true, ruleMood: 'allow' }]],
        ],
      },
    );
  });

  it('never puts an argument value in a denial: result, event, audit line or log line', async () => {
    await fc.assert(
      fc.asyncProperty(plannedCall, fc.boolean(), async (call, inRun) => {
        const moods = new Map([[call.value, call.ruleMood] as const]);
        const { registry, logger, events } = buildRegistry(moods);
        const runId = inRun ? await registry.startRun() : null;
        const context = new ToolContext({ principal: 'agent:1', channel: 'web', scopes: call.scoped ? ['admin'] : [], runId });
        const result = await registry.call(call.tool, { id: call.value }, context);
        const denied = result.meta['code'] === 'FORBIDDEN' && 'rule' in result.meta;
        if (!denied) return;
        expect(JSON.stringify(result.toJSON())).not.toContain(call.value);
        for (const event of events) {
          if (event === null || typeof event !== 'object' || !('rule' in event)) continue;
          expect(JSON.stringify(event)).not.toContain(call.value);
        }
        for (const line of logger.lines) {
          expect(line.message).not.toContain(call.value);
          expect(JSON.stringify(line.context)).not.toContain(call.value);
        }
      }),
      {
        numRuns: 150,
        examples: [
          [{ tool: 'delete_note', value: `${MARK}x${MARK}`, valid: true, scoped: false, ruleMood: 'throw' }, true],
          [{ tool: 'read_note', value: `${MARK}y${MARK}`, valid: true, scoped: false, ruleMood: 'leak_reason' }, false],
          [{ tool: 'delete_note', value: `${MARK}z${MARK}`, valid: true, scoped: false, ruleMood: 'deny' }, true],
        ],
      },
    );
  });
});
