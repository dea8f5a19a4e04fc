import { EventDispatcher } from '@milpa/events';
import {
  ToolContext,
  Type,
  defineTool,
  type PolicyRule,
  type PolicyRuleProvider,
  type RateLimiter,
  type RateLimitResult,
} from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemoryRateLimiter } from '../../src/rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { SchemaValidator } from '../../src/validation/schema-validator.js';
import { quietLogger, settleWithin } from './settle-within.js';

const SCOPES = ['read', 'write', 'admin'] as const;
const strictInput = Type.Object({ n: Type.Integer({ minimum: 0, maximum: 10 }) }, { additionalProperties: false });
const looseInput = Type.Object({}, { additionalProperties: true });
// One validator for every registry and for the oracle: each schema compiles once.
const validator = new SchemaValidator();
const checkStrict = validator.compile(strictInput);

const toolSpec = fc.record({
  scopes: fc.subarray([...SCOPES]),
  mutating: fc.boolean(),
  strict: fc.boolean(),
});

const contextSpec = fc.record({
  channel: fc.constantFrom('cli', 'mcp', 'web', 'telegram', 'kiosk'),
  principal: fc.constantFrom(null, '', 'alice', 'bob:admin'),
  scopes: fc.subarray(['read', 'write', 'admin', '*']),
  mode: fc.constantFrom<'execute' | 'plan'>('execute', 'execute', 'execute', 'plan'),
});

const argsSpec = fc.oneof(
  fc.record({ n: fc.integer({ min: -3, max: 13 }) }),
  fc.constant({}),
  fc.constant({ n: 'five' }),
  fc.record({ n: fc.integer({ min: 0, max: 10 }), extra: fc.boolean() }),
);

type RuleAnswer = 'none' | 'allow' | 'deny' | 'needs_admin' | 'throws' | 'rejects' | 'async_allow' | 'async_deny';
const ruleAnswer = fc.constantFrom<RuleAnswer>('none', 'allow', 'deny', 'needs_admin', 'throws', 'rejects', 'async_allow', 'async_deny');

function ruleProvider(answers: Readonly<Record<string, RuleAnswer>>): PolicyRuleProvider {
  const rule = (effect: string, requiresScopes: string[] = []): PolicyRule => ({ id: 7, effect, requiresScopes, description: null });
  return {
    findMatchingRule: (_channel, _principal, toolName) => {
      switch (answers[toolName] ?? 'none') {
        case 'allow':
          return rule('allow');
        case 'deny':
          return rule('deny');
        case 'needs_admin':
          return rule('allow', ['admin']);
        case 'throws':
          throw new Error('rule store offline');
        case 'rejects':
          return Promise.reject(new Error('rule store offline'));
        case 'async_allow':
          return Promise.resolve(rule('allow'));
        case 'async_deny':
          return Promise.resolve(rule('deny'));
        default:
          return null;
      }
    },
  };
}

/** Wraps a limiter and remembers its last verdict, the oracle for the rate-limit stage. */
class RecordingLimiter implements RateLimiter {
  last: RateLimitResult | null = null;
  readonly #inner = new InMemoryRateLimiter();
  consume(key: string, cost?: number, windowSeconds?: number, maxTokens?: number): RateLimitResult {
    this.last = this.#inner.consume(key, cost, windowSeconds, maxTokens);
    return this.last;
  }
  getUsage(key: string): number {
    return this.#inner.getUsage(key);
  }
  reset(key: string): void {
    this.#inner.reset(key);
  }
}

const scenario = fc.record({
  tools: fc.array(fc.tuple(toolSpec, ruleAnswer), { minLength: 1, maxLength: 4 }),
  budget: fc.integer({ min: 1, max: 6 }),
  calls: fc.array(fc.record({ tool: fc.nat(), context: contextSpec, args: argsSpec }), { minLength: 1, maxLength: 10 }),
});

describe('ToolRegistry', () => {
  describe('call (property: the interception anchor)', () => {
    it('runs no tool.executing listener and no handler when validation, authorization or the rate limit refuses', async () => {
      const outcomes = new Set<string>();
      await fc.assert(
        fc.asyncProperty(scenario, async ({ tools, budget, calls }) => {
          const dispatcher = new EventDispatcher({ logger: quietLogger });
          const limiter = new RecordingLimiter();
          const answers = Object.fromEntries(tools.map(([, answer], index) => [`t${index}`, answer]));
          const registry = new ToolRegistry({
            defaultContext: () => ToolContext.cli(),
            dispatcher,
            validator,
            rateLimiter: limiter,
            rateLimit: { maxTokens: budget, cost: 1, mutatingCost: 2 },
            ruleProvider: ruleProvider(answers),
          });
          let listened = 0;
          let handled = 0;
          dispatcher.subscribe('tool.executing', () => {
            listened += 1;
          });
          dispatcher.subscribe('tool.*', (eventName) => {
            if (eventName === 'tool.executing') listened += 1;
          });
          tools.forEach(([spec], index) => {
            registry.register(
              defineTool({
                name: `t${index}`,
                description: 'generated',
                input: spec.strict ? strictInput : looseInput,
                scopes: spec.scopes,
                mutating: spec.mutating,
                handler: () => {
                  handled += 1;
                  return 'ran';
                },
              }),
            );
          });

          for (const call of calls) {
            const name = `t${call.tool % tools.length}`;
            const spec = tools[call.tool % tools.length]![0];
            const context = new ToolContext(call.context);
            const definition = registry.getDefinition(name)!;
            const validBefore = !spec.strict || checkStrict(call.args).valid;
            const authorized = (await registry.getPolicyGate().authorize(context, definition)).allowed;
            limiter.last = null;
            const [listenedBefore, handledBefore] = [listened, handled];

            const result = await settleWithin(registry.call(name, call.args, context), 5_000);
            const ran = { listener: listened - listenedBefore, handler: handled - handledBefore };
            const limited = limiter.last !== null && !(limiter.last as RateLimitResult).allowed;

            // A refused caller gets the authorization refusal whatever its arguments: validation
            // details are only for a caller authorization lets through.
            if (!authorized) {
              expect(result.meta['code']).toBe('FORBIDDEN');
              expect(result.meta['errors']).toBeUndefined();
              expect(limiter.last, 'the limiter ran after a denial').toBeNull();
            } else if (!validBefore) {
              expect(result.meta['code']).toBe('VALIDATION_ERROR');
              expect(limiter.last, 'the limiter ran after a validation failure').toBeNull();
            } else if (limited) {
              expect(result.meta['code']).toBe('RATE_LIMITED');
            }
            const refused = !validBefore || !authorized || limited;
            if (refused) {
              expect(ran).toEqual({ listener: 0, handler: 0 });
            } else if (context.mode === 'plan' || registry.getPolicyGate().requiresConfirmation(context, definition)) {
              expect(ran).toEqual({ listener: 0, handler: 0 });
            } else {
              // Both listeners saw the call once, and the handler ran: the property is not vacuous.
              expect(ran).toEqual({ listener: 2, handler: 1 });
              expect(result.data).toBe('ran');
            }
            outcomes.add(
              !authorized ? 'authorization' : !validBefore ? 'validation' : limited ? 'rate_limit' : ran.handler > 0 ? 'executed' : 'held',
            );
          }
        }),
        { numRuns: 600 },
      );
      expect([...outcomes].sort()).toEqual(['authorization', 'executed', 'held', 'rate_limit', 'validation']);
    }, 60_000);
  });
});
