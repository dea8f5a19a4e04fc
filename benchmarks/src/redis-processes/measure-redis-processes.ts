import { createClient } from 'redis';
import { BENCH_REDIS_URL, deleteRedisKeys, uniqueRedisPrefix } from '../fixtures/bench-stores.js';
import { summarizeSamples, type SampleStats } from '../harness/sample-stats.js';
import type { ClaimOutcome, RunWindow, SpendOutcome } from './redis-worker-messages.js';
import { RedisWorkerProcess } from './redis-worker-process.js';

/** How the two-process measurement runs. */
export interface RedisProcessesSettings {
  /** Rounds; each times one process alone and two together, in alternating order. */
  readonly rounds: number;
  /** Wall time of one window, ms. */
  readonly windowMs: number;
  /** Concurrent callers in each process. */
  readonly concurrency: number;
  /** The small shared budget of the correctness phase (calls per 60 s, both processes together). */
  readonly budget: number;
  /** Calls each process makes under that budget (together more than the budget). */
  readonly callsPerProcess: number;
  /** Idempotency keys both processes present, each, in the correctness phase. */
  readonly sharedKeys: number;
}

/** One configuration's figures, per window. */
export interface ProcessesFigures {
  /** Calls per second of all processes together. */
  readonly totalPerSecond: SampleStats;
  /** Calls per second of each process (one entry per process). */
  readonly perProcessPerSecond: readonly SampleStats[];
  /** CPU µs of the calling processes per call. */
  readonly workerCpuMicrosPerCall: SampleStats;
  /** CPU µs of the Redis server per call (from `INFO cpu`). */
  readonly redisCpuMicrosPerCall: SampleStats;
  /** Calls per second of all processes together, per round (pairs with the other configuration's). */
  readonly totals: readonly number[];
}

/** What the correctness phase found (the run fails before returning when it is wrong). */
export interface RedisProcessesVerification {
  /** The shared budget. */
  readonly budget: number;
  /** Calls made under it by both processes. */
  readonly attempted: number;
  /** Calls that ran. */
  readonly succeeded: number;
  /** Calls refused with `RATE_LIMITED`. */
  readonly rateLimited: number;
  /** Shared idempotency keys, each presented by both processes. */
  readonly sharedKeys: number;
  /** Handler runs for those keys, both processes together. */
  readonly handlerRuns: number;
  /** Calls answered by replaying the other's (or its own in-flight) result. */
  readonly replayed: number;
}

/** The whole two-process measurement. */
export interface RedisProcessesMeasurement {
  /** The settings it ran with. */
  readonly settings: RedisProcessesSettings;
  /** One process alone on Redis (the baseline). */
  readonly one: ProcessesFigures;
  /** Two processes on one Redis at once. */
  readonly two: ProcessesFigures;
  /** Median over rounds of two processes' total calls/s over one process's calls/s of the same round. */
  readonly scaling: number;
  /** The correctness phase. */
  readonly verification: RedisProcessesVerification;
  /** The Redis server's version. */
  readonly redisVersion: string;
}

/** The part of a Redis client this file reads the server's figures with. */
interface RedisClient {
  info(section: string): Promise<string>;
}

/** Seconds of CPU the Redis server has used (user + system, main and background threads). */
async function redisCpuSeconds(client: RedisClient): Promise<number> {
  const info = await client.info('cpu');
  const field = (name: string): number => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  const seconds = field('used_cpu_user') + field('used_cpu_sys');
  if (!Number.isFinite(seconds)) throw new Error(`unexpected INFO cpu reply: ${info}`);
  return seconds;
}

/** The start time both workers wait for: far enough ahead for the IPC messages to arrive. */
function startSoon(): number {
  return Date.now() + 100;
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`Two processes on one Redis: ${message}`);
}

/** Runs one window with `workers` calling at once and returns each one's figures and Redis's CPU µs. */
async function runWindow(
  workers: readonly RedisWorkerProcess[],
  settings: RedisProcessesSettings,
  client: RedisClient,
): Promise<{ readonly windows: RunWindow[]; readonly redisCpuMicros: number }> {
  const cpuBefore = await redisCpuSeconds(client);
  const startAt = startSoon();
  const replies = await Promise.all(
    workers.map((worker) =>
      worker.request({ type: 'run', startAt, durationMs: settings.windowMs, concurrency: settings.concurrency }, 'ran'),
    ),
  );
  const redisCpuMicros = ((await redisCpuSeconds(client)) - cpuBefore) * 1e6;
  const windows = replies.map((reply) => reply.window);
  for (const window of windows) {
    check(window.failed === 0, `${window.failed} calls failed in a throughput window (first: ${window.firstFailure ?? '?'})`);
    check(window.lines === window.succeeded, `${window.succeeded} calls wrote ${window.lines} audit lines`);
  }
  return { windows, redisCpuMicros };
}

function figuresOf(samples: readonly { readonly windows: RunWindow[]; readonly redisCpuMicros: number }[]): ProcessesFigures {
  const totals = samples.map(({ windows }) => windows.reduce((sum, window) => sum + (window.succeeded * 1000) / window.wallMs, 0));
  const processCount = samples[0]!.windows.length;
  const calls = (windows: RunWindow[]): number => windows.reduce((sum, window) => sum + window.succeeded, 0);
  return {
    totalPerSecond: summarizeSamples(totals),
    perProcessPerSecond: Array.from({ length: processCount }, (_, index) =>
      summarizeSamples(samples.map(({ windows }) => (windows[index]!.succeeded * 1000) / windows[index]!.wallMs)),
    ),
    workerCpuMicrosPerCall: summarizeSamples(
      samples.map(({ windows }) => windows.reduce((sum, window) => sum + window.cpuMicros, 0) / calls(windows)),
    ),
    redisCpuMicrosPerCall: summarizeSamples(samples.map(({ windows, redisCpuMicros }) => redisCpuMicros / calls(windows))),
    totals,
  };
}

/** Both workers spend the small shared budget at once; exactly `budget` calls may run. */
async function verifyBudget(workers: readonly RedisWorkerProcess[], settings: RedisProcessesSettings): Promise<SpendOutcome[]> {
  const startAt = startSoon();
  const outcomes = (
    await Promise.all(
      workers.map((worker) =>
        worker.request({ type: 'spend', startAt, calls: settings.callsPerProcess, concurrency: settings.concurrency }, 'spent'),
      ),
    )
  ).map((reply) => reply.outcome);
  const succeeded = outcomes.reduce((sum, outcome) => sum + outcome.succeeded, 0);
  const other = outcomes.flatMap((outcome) => Object.entries(outcome.other));
  check(other.length === 0, `calls under the shared budget ended otherwise than ran or RATE_LIMITED: ${JSON.stringify(other)}`);
  check(succeeded <= settings.budget, `${succeeded} calls ran under a shared budget of ${settings.budget}: the budget was exceeded`);
  // The phase ends well inside one 60 s window, so every token of the budget is spent.
  check(Math.max(...outcomes.map((outcome) => outcome.wallMs)) < 50_000, 'the budget phase took longer than its rate-limit window');
  check(
    succeeded === settings.budget,
    `only ${succeeded} calls ran under a shared budget of ${settings.budget} with ${settings.callsPerProcess * workers.length} attempts`,
  );
  return outcomes;
}

/** Both workers present the same idempotency keys at once; each key's call runs exactly once. */
async function verifyIdempotency(workers: readonly RedisWorkerProcess[], settings: RedisProcessesSettings): Promise<ClaimOutcome[]> {
  const keys = Array.from({ length: settings.sharedKeys }, (_, index) => `shared-${index}`);
  const startAt = startSoon();
  const outcomes = (
    await Promise.all(
      workers.map((worker) => worker.request({ type: 'claim', startAt, keys, concurrency: settings.concurrency }, 'claimed')),
    )
  ).map((reply) => reply.outcome);
  const other = outcomes.flatMap((outcome) => Object.entries(outcome.other));
  check(other.length === 0, `calls with shared idempotency keys failed: ${JSON.stringify(other)}`);
  const runs = outcomes.reduce((sum, outcome) => sum + outcome.handlerRuns, 0);
  check(runs === keys.length, `${keys.length} shared idempotency keys ran the handler ${runs} times`);
  const replayed = outcomes.reduce((sum, outcome) => sum + outcome.replayed, 0);
  check(
    replayed === keys.length * (workers.length - 1),
    `${replayed} replays for ${keys.length} keys presented by ${workers.length} processes`,
  );
  return outcomes;
}

/**
 * Calls per second of one and of two processes whose registries keep their rate limiter (one
 * shared budget, one bucket) and idempotency keys in one Redis, in alternating windows of the same
 * run, then proves the sharing correct: a budget smaller than the calls made by both processes is
 * spent exactly, never exceeded, and idempotency keys presented by both run their call once.
 * Deletes every key it wrote.
 *
 * @throws Error when Redis is unreachable, a worker fails, or a correctness check fails.
 */
export async function measureRedisProcesses(
  settings: RedisProcessesSettings,
  onProgress: (message: string) => void,
): Promise<RedisProcessesMeasurement> {
  const prefix = uniqueRedisPrefix();
  const client = createClient({ url: BENCH_REDIS_URL, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `The store benchmarks need a Redis server at ${BENCH_REDIS_URL} (set BENCH_REDIS_URL to use another one): ${String(error)}`,
      {
        cause: error,
      },
    );
  }
  const workers: RedisWorkerProcess[] = [];
  try {
    const redisVersion = /^redis_version:(\S+)/m.exec(await client.info('server'))?.[1] ?? 'unknown';
    workers.push(
      ...(await Promise.all([RedisWorkerProcess.start(prefix, settings.budget), RedisWorkerProcess.start(prefix, settings.budget)])),
    );
    const [first, second] = workers as [RedisWorkerProcess, RedisWorkerProcess];
    onProgress('Redis workers: warming up');
    await runWindow(workers, { ...settings, windowMs: 1_500 }, client);
    const one: { windows: RunWindow[]; redisCpuMicros: number }[] = [];
    const two: { windows: RunWindow[]; redisCpuMicros: number }[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      // One alone, then both (or the reverse), so a slow moment of the machine is shared; the lone worker alternates.
      const alone = round % 2 === 0 ? first : second;
      const steps = round % 2 === 0 ? (['one', 'two'] as const) : (['two', 'one'] as const);
      for (const step of steps) {
        if (step === 'one') one.push(await runWindow([alone], settings, client));
        else two.push(await runWindow(workers, settings, client));
      }
      onProgress(`Redis workers: round ${round + 1}/${settings.rounds}`);
    }
    const spent = await verifyBudget(workers, settings);
    const claimed = await verifyIdempotency(workers, settings);
    onProgress('Redis workers: the shared budget and idempotency keys held');
    const oneFigures = figuresOf(one);
    const twoFigures = figuresOf(two);
    return {
      settings,
      one: oneFigures,
      two: twoFigures,
      scaling: summarizeSamples(twoFigures.totals.map((total, index) => total / oneFigures.totals[index]!)).median,
      verification: {
        budget: settings.budget,
        attempted: settings.callsPerProcess * workers.length,
        succeeded: spent.reduce((sum, outcome) => sum + outcome.succeeded, 0),
        rateLimited: spent.reduce((sum, outcome) => sum + outcome.rateLimited, 0),
        sharedKeys: settings.sharedKeys,
        handlerRuns: claimed.reduce((sum, outcome) => sum + outcome.handlerRuns, 0),
        replayed: claimed.reduce((sum, outcome) => sum + outcome.replayed, 0),
      },
      redisVersion,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
    client.destroy();
    await deleteRedisKeys(prefix);
  }
}

/** The settings `pnpm bench` uses. */
export const REDIS_PROCESSES_SETTINGS: RedisProcessesSettings = {
  rounds: 4,
  windowMs: 2_000,
  concurrency: 8,
  budget: 1_000,
  callsPerProcess: 1_500,
  sharedKeys: 500,
};

const isMain = import.meta.url === `file://${process.argv[1] ?? ''}`;
if (isMain) {
  const measured = await measureRedisProcesses(REDIS_PROCESSES_SETTINGS, (message) => process.stderr.write(`[bench] ${message}\n`));
  const perSecond = (stats: SampleStats): string => Math.round(stats.median).toLocaleString('en-US');
  for (const [name, figures] of [
    ['1 process', measured.one],
    ['2 processes', measured.two],
  ] as const) {
    console.log(
      `${name.padEnd(12)} ${perSecond(figures.totalPerSecond).padStart(7)} calls/s ` +
        `(${figures.perProcessPerSecond.map(perSecond).join(' + ')}), ` +
        `worker CPU ${figures.workerCpuMicrosPerCall.median.toFixed(1)} µs/call, ` +
        `Redis CPU ${figures.redisCpuMicrosPerCall.median.toFixed(1)} µs/call`,
    );
  }
  console.log(`2 processes / 1 process: ×${measured.scaling.toFixed(2)}; verification ${JSON.stringify(measured.verification)}`);
}
