import { ToolErrorCode, type Logger } from '@milpa/core';
import { rateLimitKey } from '@milpa/tool-runtime';
import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import type { BenchStoreSet } from '../fixtures/bench-stores.js';
import type { DiscardStream } from '../fixtures/discard-stream.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_TOOL_NAME, INVALID_ARGS } from '../fixtures/bench-tool.js';
import { createMilpaSetup } from '../fixtures/milpa-setup.js';

/** What a store row measures. */
export interface MilpaStoreRowOptions {
  /** Table id. */
  readonly id: string;
  /** The stores the registry is wired with. */
  readonly stores: BenchStoreSet;
  /** `rate-limit`: a plain call; `idempotency`: every call carries a fresh idempotency key. */
  readonly kind: 'rate-limit' | 'idempotency';
  /** The production logger (pino at info) and its stream, which the check reads. */
  readonly production: { readonly logger: Logger; readonly stream: DiscardStream };
  /** The rate limiter's budget per 60 s window; high enough never to trip. */
  readonly budget: number;
  /** The id of the in-memory row of the same set, which this row's ratio divides by. */
  readonly baseline: string;
}

/**
 * A row timing row 3's production call (pino at info, audit on, dispatcher) with the rate limiter,
 * and for `idempotency` also a fresh idempotency key per call, in the given stores. Timed by wall
 * clock: a Redis round trip or an fsync is time the caller waits without spending CPU.
 *
 * The check proves the store is really in the path: the call writes one audit line and spends one
 * token of the store's budget; with a key, a retry with the same key is answered from the store
 * without running the handler; invalid arguments are refused.
 */
export function createMilpaStoreRow(options: MilpaStoreRowOptions): CallRow {
  const { stores, kind, production } = options;
  let handlerRuns = 0;
  const { registry, context } = createMilpaSetup({
    logger: production.logger,
    budget: options.budget,
    rateLimiter: stores.rateLimiter,
    idempotencyStore: stores.idempotencyStore,
    onHandlerRun: () => {
      handlerRuns += 1;
    },
  });
  const args = { ...BENCH_ARGS };
  // Keys unique to this row and run, so rows sharing one store never replay each other's calls.
  const keyPrefix = `bench-${options.id}-${process.pid}-${Date.now().toString(36)}-`;
  let nextKey = 0;
  const bucket = rateLimitKey(context.channel, context.principal, BENCH_TOOL_NAME);
  return {
    id: options.id,
    label: kind === 'rate-limit' ? `rate limiter in ${stores.name}` : `rate limiter and a fresh idempotency key per call in ${stores.name}`,
    group: kind === 'rate-limit' ? 'store-rate-limit' : 'store-idempotency',
    clock: 'wall',
    baseline: options.baseline,
    check: async () => {
      const linesBefore = production.stream.lines;
      const usageBefore = await stores.rateLimiter.getUsage(bucket);
      const runsBefore = handlerRuns;
      const key = `${keyPrefix}check`;
      const callOptions = kind === 'idempotency' ? { idempotencyKey: key } : undefined;
      const result = await registry.call(BENCH_TOOL_NAME, args, context, callOptions);
      assertCheck(result.success && result.data === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      assertCheck(production.stream.lines === linesBefore + 1, 'the call did not write one audit line');
      assertCheck(handlerRuns === runsBefore + 1, 'the handler did not run once');
      const usageAfter = await stores.rateLimiter.getUsage(bucket);
      assertCheck(
        usageAfter === usageBefore + 1,
        `the ${stores.name} rate limiter went from ${usageBefore} to ${usageAfter} tokens, not one more`,
      );
      if (kind === 'idempotency') {
        const retry = await registry.call(BENCH_TOOL_NAME, args, context, { idempotencyKey: key });
        assertCheck(
          retry.success && retry.data === BENCH_RESULT && retry.meta['idempotent_replay'] === true,
          `a retry with the same key was not replayed: ${JSON.stringify(retry)}`,
        );
        assertCheck(handlerRuns === runsBefore + 1, 'a retry with the same key ran the handler again');
      }
      const refused = await registry.call(BENCH_TOOL_NAME, { ...INVALID_ARGS }, context);
      assertCheck(refused.getCode() === ToolErrorCode.VALIDATION_ERROR, `invalid arguments gave ${JSON.stringify(refused)}`);
    },
    batch:
      kind === 'rate-limit'
        ? async (n) => {
            for (let index = 0; index < n; index++) await registry.call(BENCH_TOOL_NAME, args, context);
          }
        : async (n) => {
            for (let index = 0; index < n; index++) {
              await registry.call(BENCH_TOOL_NAME, args, context, { idempotencyKey: `${keyPrefix}${nextKey++}` });
            }
          },
  };
}
