/**
 * One process of the "two processes on one Redis" benchmark, forked by `measure-redis-processes.ts`
 * with an IPC channel: `node --conditions=@milpa/source --import tsx redis-worker.ts <prefix> <budget>`.
 * It wires two registries in the production configuration (pino at info to a discarding stream,
 * audit on, dispatcher) whose rate limiter and idempotency store are `RedisStores` under the shared
 * `<prefix>`: one with a budget that never trips (throughput), one with the small shared `<budget>`
 * (correctness). Then it does what the parent asks, one request at a time.
 */
import { ToolContext, type ToolResult } from '@milpa/core';
import type { ToolRegistry } from '@milpa/tool-runtime';
import { connectBenchRedis } from '../fixtures/bench-stores.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_SCOPE, BENCH_TOOL_NAME } from '../fixtures/bench-tool.js';
import { createProductionLogger } from '../fixtures/discard-stream.js';
import { createMilpaSetup } from '../fixtures/milpa-setup.js';
import type { ClaimOutcome, RunWindow, SpendOutcome, WorkerReply, WorkerRequest } from './redis-worker-messages.js';

/** The throughput registry's budget per 60 s: far above anything a window spends. */
const NEVER_TRIPS = 1_000_000_000_000;

function send(message: WorkerReply): void {
  process.send?.(message);
}

/** Resolves at `startAt` (epoch ms), so that both workers begin together. */
async function waitUntil(startAt: number): Promise<void> {
  const delay = startAt - Date.now();
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}

/** Runs `loop` from `concurrency` concurrent callers and waits for all of them. */
async function inParallel(concurrency: number, loop: () => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: concurrency }, loop));
}

function describeFailure(result: ToolResult): string {
  return `${result.getCode() ?? 'no code'}: ${result.error ?? result.message ?? ''}`;
}

async function main(): Promise<void> {
  const prefix = process.argv[2];
  const budget = Number(process.argv[3]);
  if (prefix === undefined || !Number.isInteger(budget) || budget < 1) throw new Error('usage: redis-worker.ts <prefix> <budget>');
  const stores = await connectBenchRedis(prefix);
  const production = createProductionLogger();
  let handlerRuns = 0;
  const wiring = {
    logger: production.logger,
    rateLimiter: stores.rateLimiter,
    idempotencyStore: stores.idempotency,
    onHandlerRun: () => void handlerRuns++,
  };
  const throughput = createMilpaSetup({ ...wiring, budget: NEVER_TRIPS });
  // Its own principal, so its bucket (`mcp:user:budget:lookup_note`) is shared by both workers and by nothing else.
  const budgeted: { registry: ToolRegistry; context: ToolContext } = {
    registry: createMilpaSetup({ ...wiring, budget }).registry,
    context: ToolContext.mcp('bench-budget', 'user:budget', [BENCH_SCOPE]),
  };
  const args = { ...BENCH_ARGS };
  let nextKey = 0;

  const run = async (request: Extract<WorkerRequest, { type: 'run' }>): Promise<RunWindow> => {
    await waitUntil(request.startAt);
    let succeeded = 0;
    let failed = 0;
    let firstFailure: string | null = null;
    const lines = production.stream.lines;
    const cpu = process.cpuUsage();
    const from = performance.now();
    const deadline = from + request.durationMs;
    await inParallel(request.concurrency, async () => {
      while (performance.now() < deadline) {
        const result = await throughput.registry.call(BENCH_TOOL_NAME, args, throughput.context, {
          idempotencyKey: `${process.pid}-${nextKey++}`,
        });
        if (result.success && result.data === BENCH_RESULT) succeeded++;
        else {
          failed++;
          firstFailure ??= describeFailure(result);
        }
      }
    });
    const wallMs = performance.now() - from;
    const used = process.cpuUsage(cpu);
    return { succeeded, failed, firstFailure, wallMs, cpuMicros: used.user + used.system, lines: production.stream.lines - lines };
  };

  const spend = async (request: Extract<WorkerRequest, { type: 'spend' }>): Promise<SpendOutcome> => {
    await waitUntil(request.startAt);
    let remaining = request.calls;
    let succeeded = 0;
    let rateLimited = 0;
    const other: Record<string, number> = {};
    const from = performance.now();
    await inParallel(request.concurrency, async () => {
      while (remaining > 0) {
        remaining--;
        const result = await budgeted.registry.call(BENCH_TOOL_NAME, args, budgeted.context, {
          idempotencyKey: `${process.pid}-${nextKey++}`,
        });
        if (result.success) succeeded++;
        else if (result.getCode() === 'RATE_LIMITED') rateLimited++;
        else other[describeFailure(result)] = (other[describeFailure(result)] ?? 0) + 1;
      }
    });
    return { succeeded, rateLimited, other, wallMs: performance.now() - from };
  };

  const claim = async (request: Extract<WorkerRequest, { type: 'claim' }>): Promise<ClaimOutcome> => {
    await waitUntil(request.startAt);
    const runsBefore = handlerRuns;
    let next = 0;
    let succeeded = 0;
    let replayed = 0;
    const other: Record<string, number> = {};
    await inParallel(request.concurrency, async () => {
      while (next < request.keys.length) {
        const key = request.keys[next++]!;
        const result = await throughput.registry.call(BENCH_TOOL_NAME, args, throughput.context, { idempotencyKey: key });
        if (result.success && result.data === BENCH_RESULT) {
          succeeded++;
          if (result.meta['idempotent_replay'] === true) replayed++;
        } else other[describeFailure(result)] = (other[describeFailure(result)] ?? 0) + 1;
      }
    });
    return { handlerRuns: handlerRuns - runsBefore, succeeded, replayed, other };
  };

  process.on('message', (message: WorkerRequest) => {
    void (async () => {
      if (message.type === 'run') send({ type: 'ran', window: await run(message) });
      else if (message.type === 'spend') send({ type: 'spent', outcome: await spend(message) });
      else if (message.type === 'claim') send({ type: 'claimed', outcome: await claim(message) });
      else {
        await stores.close();
        process.exit(0);
      }
    })().catch((error: unknown) =>
      send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  send({ type: 'ready' });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
