import { EventDispatcher } from '@milpa/events';
import {
  type RateLimitResult,
  ToolContext,
  ToolResult,
  Type,
  defineTool,
  isToolErrorCode,
  type ConfirmationStore,
  type EventDispatcher as EventDispatcherContract,
  type EventListener,
  type Logger,
  type PolicyRuleProvider,
  type RateLimiter,
} from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfirmationTokenStore } from '../../src/confirmation/confirmation-token-store.js';
import { InMemoryRateLimiter } from '../../src/rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { SchemaValidator } from '../../src/validation/schema-validator.js';
import { quietLogger, settleWithin } from './settle-within.js';
import { trackUnhandledRejections } from './unhandled-rejections.js';

/** How a faulty collaborator misbehaves. */
type Fault =
  | 'throw_error'
  | 'throw_string'
  | 'throw_undefined'
  | 'throw_unprintable'
  | 'throw_symbol'
  | 'reject_error'
  | 'reject_unprintable';
const FAULTS: readonly Fault[] = [
  'throw_error',
  'throw_string',
  'throw_undefined',
  'throw_unprintable',
  'throw_symbol',
  'reject_error',
  'reject_unprintable',
];
const fault = fc.constantFrom(...FAULTS);
// Each collaborator is healthy more often than not, so runs where only one or two fail are common.
const healthy = { arbitrary: fc.constant(null), weight: 3 };
const maybeFault = fc.oneof(healthy, { arbitrary: fault, weight: 2 });

function unprintable(): object {
  return Object.create(null, {
    message: {
      get(): string {
        throw new Error('the message getter throws');
      },
    },
  }) as object;
}

/** Misbehaves as `kind` says: throws synchronously, or returns a rejected promise. */
function misbehave(kind: Fault): Promise<never> {
  switch (kind) {
    case 'throw_error':
      throw new Error('collaborator failed');
    case 'throw_string':
      // Non-Error throws are the point.
      throw 'collaborator failed';
    case 'throw_undefined':
      throw undefined;
    case 'throw_unprintable':
      throw unprintable();
    case 'throw_symbol':
      throw Symbol('collaborator failed');
    case 'reject_error':
      return Promise.reject(new Error('collaborator failed'));
    case 'reject_unprintable':
      return Promise.reject(unprintable());
  }
}

/** A logger whose every method fails the same way (a rejecting one returns a rejected promise, as an async logger would). */
function faultyLogger(kind: Fault): Logger {
  // Typed as void like any Logger method, but it hands its rejected promise back to the caller.
  const write = (() => misbehave(kind)) as () => void;
  return { debug: write, info: write, warn: write, error: write, isLevelEnabled: () => true };
}

/** A limiter verdict that is not one: missing, or with an `allowed` that is not a boolean. */
type MalformedVerdict = 'null' | 'undefined' | 'empty_object' | 'string' | 'string_flag' | 'number_flag';
const malformedVerdict = fc.constantFrom<MalformedVerdict>('null', 'undefined', 'empty_object', 'string', 'string_flag', 'number_flag');
const verdictValue = (kind: MalformedVerdict): unknown =>
  ({
    null: null,
    undefined,
    empty_object: {},
    string: 'yes',
    // What a remote adapter might pass through unparsed: truthy, but not `true`.
    string_flag: { allowed: '0', reason: null },
    number_flag: { allowed: 1 },
  })[kind];

/** Redeemed "arguments" that are not an object: a store's way of saying "no such token" badly. */
type MalformedArgs = 'undefined' | 'string' | 'number' | 'true' | 'array';
const malformedArgs = fc.constantFrom<MalformedArgs>('undefined', 'string', 'number', 'true', 'array');
const argsValue = (kind: MalformedArgs): unknown => ({ undefined, string: 'args', number: 1, true: true, array: [{ n: 1 }] })[kind];

const plan = fc.record({
  logger: maybeFault,
  ruleProvider: maybeFault,
  rateLimiter: fc.oneof(
    healthy,
    { arbitrary: fault, weight: 1 },
    { arbitrary: malformedVerdict.map((kind) => ({ malformed: kind })), weight: 1 },
  ),
  storeCreate: maybeFault,
  storeConsume: fc.oneof(
    healthy,
    { arbitrary: fault, weight: 1 },
    { arbitrary: malformedArgs.map((kind) => ({ malformed: kind })), weight: 1 },
  ),
  dispatcher: fc.constantFrom('event_dispatcher', 'custom', 'none'),
  executingListener: maybeFault,
  executedListener: maybeFault,
  failedListener: maybeFault,
  hasSubscribers: maybeFault,
  dispatchExecuting: maybeFault,
  dispatchExecuted: maybeFault,
  handler: fc.oneof(healthy, { arbitrary: fault, weight: 2 }, { arbitrary: fc.constant('never_settles' as const), weight: 1 }),
  confirmed: fc.boolean(),
});
type Plan = typeof plan extends fc.Arbitrary<infer T> ? T : never;

/** A dispatcher of our own that can fail at every entry point the registry uses. */
function faultyDispatcher(setup: Plan): EventDispatcherContract {
  const inner = new EventDispatcher({ logger: quietLogger });
  return {
    subscribe: (name: string, listener: EventListener, priority?: number) => inner.subscribe(name, listener, priority),
    getSubscribers: (name: string) => inner.getSubscribers(name),
    hasSubscribers: (name: string) => {
      if (name === 'tool.executing' && setup.hasSubscribers !== null) misbehaveSync(setup.hasSubscribers);
      return name === 'tool.executing' ? true : inner.hasSubscribers(name);
    },
    dispatch: (name: string, payload?: Record<string, unknown>) => {
      if (name === 'tool.executing' && setup.dispatchExecuting !== null) return misbehave(setup.dispatchExecuting);
      if (name !== 'tool.executing' && setup.dispatchExecuted !== null) return misbehave(setup.dispatchExecuted);
      return inner.dispatch(name, payload);
    },
  };
}

/** Throws for every fault kind (a synchronous boolean method cannot reject). */
function misbehaveSync(kind: Fault): never {
  if (kind === 'reject_error') throw new Error('collaborator failed');
  if (kind === 'reject_unprintable') throw unprintable() as Error;
  void misbehave(kind);
  throw new Error('unreachable: misbehave throws for every synchronous kind');
}

const validator = new SchemaValidator();

function faultyRegistry(setup: Plan): { registry: ToolRegistry; handled: () => number } {
  const limiter = new InMemoryRateLimiter();
  const rateLimiter: RateLimiter = {
    consume: (...args) => {
      const mode = setup.rateLimiter;
      if (mode === null) return limiter.consume(...args);
      if (typeof mode === 'object') return verdictValue(mode.malformed) as RateLimitResult;
      return misbehave(mode);
    },
    getUsage: (key) => limiter.getUsage(key),
    reset: (key) => limiter.reset(key),
  };
  const ruleProvider: PolicyRuleProvider = {
    findMatchingRule: () => (setup.ruleProvider === null ? null : misbehave(setup.ruleProvider)),
  };
  const tokens = new ConfirmationTokenStore();
  const store: ConfirmationStore = {
    create: (...args) => (setup.storeCreate === null ? tokens.create(...args) : misbehave(setup.storeCreate)),
    consume: (...args) => {
      const mode = setup.storeConsume;
      if (mode === null) return tokens.consume(...args);
      // A store that answers garbage still burns the real token, as a buggy store would.
      tokens.consume(...args);
      if (typeof mode === 'object') return argsValue(mode.malformed) as null;
      return misbehave(mode);
    },
    isValid: (...args) => tokens.isValid(...args),
  };
  let dispatcher: EventDispatcherContract | null = null;
  if (setup.dispatcher === 'custom') dispatcher = faultyDispatcher(setup);
  if (setup.dispatcher === 'event_dispatcher') {
    const events = new EventDispatcher({ logger: setup.logger === null ? quietLogger : faultyLogger(setup.logger) });
    const listener =
      (kind: Fault | null): EventListener =>
      () =>
        kind === null ? undefined : misbehave(kind);
    events.subscribe('tool.executing', listener(setup.executingListener));
    events.subscribe('tool.executed', listener(setup.executedListener));
    events.subscribe('tool.failed', listener(setup.failedListener));
    dispatcher = events;
  }
  const registry = new ToolRegistry({
    defaultContext: () => ToolContext.cli(),
    logger: setup.logger === null ? quietLogger : faultyLogger(setup.logger),
    validator,
    rateLimiter,
    ruleProvider,
    confirmationStore: store,
    dispatcher,
  });
  let handled = 0;
  registry.register(
    defineTool({
      name: 'work',
      description: 'Does the work, or fails as planned',
      input: Type.Object({ n: Type.Integer() }),
      requiresConfirmation: setup.confirmed,
      hardTimeout: setup.handler === 'never_settles',
      timeoutMs: setup.handler === 'never_settles' ? 5 : 30_000,
      handler: ({ n }) => {
        handled += 1;
        if (setup.handler === 'never_settles') return new Promise<never>(() => {});
        if (setup.handler !== null) return misbehave(setup.handler);
        return n * 2;
      },
    }),
  );
  return { registry, handled: () => handled };
}

/** What the call must come to (fail closed, never a rejection), from the first stage that fails. */
function expectedOutcome(setup: Plan, phase: 'ask' | 'redeem'): { code: string | null; runs: boolean; confirmation?: true } {
  if (setup.ruleProvider !== null) return { code: 'FORBIDDEN', runs: false };
  if (setup.rateLimiter !== null) return { code: 'STORE_UNAVAILABLE', runs: false };
  if (setup.confirmed && phase === 'ask') {
    return setup.storeCreate === null ? { code: null, runs: false, confirmation: true } : { code: 'STORE_UNAVAILABLE', runs: false };
  }
  if (setup.confirmed && setup.storeConsume !== null) {
    return typeof setup.storeConsume === 'object' ? { code: 'VALIDATION_ERROR', runs: false } : { code: 'STORE_UNAVAILABLE', runs: false };
  }
  if (setup.dispatcher === 'custom' && (setup.hasSubscribers !== null || setup.dispatchExecuting !== null))
    return { code: 'INTERNAL_ERROR', runs: false };
  // A failing tool.executing listener is isolated by the dispatcher: the call goes on.
  if (setup.handler === 'never_settles') return { code: 'TIMEOUT', runs: true };
  if (setup.handler !== null) return { code: 'INTERNAL_ERROR', runs: true };
  // Nothing after execution (executed/failed listeners or dispatch) can flip a success.
  return { code: null, runs: true };
}

/** A plan where nothing fails; the examples below change one thing each. */
const allHealthy: Plan = {
  logger: null,
  ruleProvider: null,
  rateLimiter: null,
  storeCreate: null,
  storeConsume: null,
  dispatcher: 'event_dispatcher',
  executingListener: null,
  executedListener: null,
  failedListener: null,
  hasSubscribers: null,
  dispatchExecuting: null,
  dispatchExecuted: null,
  handler: null,
  confirmed: false,
};

// One example per outcome the coverage check expects, so the check never depends on the random runs
// happening to reach the rarest one (a confirmed call whose handler never settles is about 1 run in 120).
const coverageExamples: [Plan][] = [
  [allHealthy],
  [{ ...allHealthy, ruleProvider: 'throw_error' }],
  [{ ...allHealthy, rateLimiter: 'reject_error' }],
  [{ ...allHealthy, handler: 'never_settles' }],
  [{ ...allHealthy, confirmed: true }],
  [{ ...allHealthy, confirmed: true, storeConsume: 'throw_string' }],
  [{ ...allHealthy, confirmed: true, storeConsume: { malformed: 'undefined' } }],
  [{ ...allHealthy, confirmed: true, handler: 'never_settles' }],
];

describe('ToolRegistry', () => {
  // A rejection nobody observes would end the host process by Node's default.
  const unhandledRejections = trackUnhandledRejections();

  describe('call (property: fault injection)', () => {
    it('never rejects and fails closed at the first failing stage, whichever collaborators fail and however', async () => {
      const reached = new Set<string>();
      await fc.assert(
        fc.asyncProperty(plan, async (setup) => {
          const { registry, handled } = faultyRegistry(setup);
          const context = ToolContext.web('user:7', ['*']);
          const asked = await settleWithin(registry.call('work', { n: 21 }, context), 5_000);
          let result: ToolResult = asked;
          let phase: 'ask' | 'redeem' = 'ask';
          const askExpectation = expectedOutcome(setup, 'ask');
          if (askExpectation.confirmation === true) {
            expect(asked.requiresConfirmation()).toBe(true);
            expect(handled()).toBe(0);
            phase = 'redeem';
            result = await settleWithin(
              registry.call('work', { n: 21 }, context, { confirmToken: asked.getConfirmToken() as string }),
              5_000,
            );
          }
          const expected = expectedOutcome(setup, phase);
          expect(ToolResult.isToolResult(result)).toBe(true);
          expect(result.meta['code'] ?? null).toBe(expected.code);
          expect(result.success).toBe(expected.code === null);
          expect(handled()).toBe(expected.runs ? 1 : 0);
          if (expected.code === null) expect(result.data).toBe(42);
          if (result.meta['code'] !== undefined) expect(isToolErrorCode(result.meta['code'])).toBe(true);
          expect(() => JSON.stringify(result)).not.toThrow();
          reached.add(`${phase}:${String(expected.code)}`);
        }),
        { numRuns: 600, examples: coverageExamples },
      );
      expect(await unhandledRejections()).toEqual([]);
      expect([...reached].sort()).toEqual(
        [
          'ask:FORBIDDEN',
          'ask:INTERNAL_ERROR',
          'ask:STORE_UNAVAILABLE',
          'ask:TIMEOUT',
          'ask:null',
          'redeem:INTERNAL_ERROR',
          'redeem:STORE_UNAVAILABLE',
          'redeem:TIMEOUT',
          'redeem:VALIDATION_ERROR',
          'redeem:null',
        ].sort(),
      );
    }, 60_000);
  });
});
