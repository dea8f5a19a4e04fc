// The worst single-operation pause of each in-memory store at 100,000 entries, mass expiries
// included. Run: node --expose-gc --conditions=@milpa/source --import tsx src/harness/measure-store-pauses.ts
// Not part of the benchmark suite or of any test.
import { PerformanceObserver } from 'node:perf_hooks';
import { VerificationRequest, VerificationResult, type VerificationRecord } from '@milpa/core';
import { ConfirmationTokenStore, InMemoryRateLimiter } from '@milpa/tool-runtime';
// The benchmarks package does not depend on @milpa/verification; its source is read directly.
import { InMemoryVerificationStore } from '../../../packages/verification/src/index.js';

/** The pauses of one phase: every operation timed on its own. */
export interface StorePauseMeasurement {
  /** What the phase does, e.g. `confirmation create after a mass expiry`. */
  readonly phase: string;
  /** Operations timed. */
  readonly operations: number;
  /** The slowest operation, in milliseconds. */
  readonly worstMs: number;
  /** The 99.9th percentile, in milliseconds. */
  readonly p999Ms: number;
  /** The median, in microseconds. */
  readonly medianUs: number;
  /** Operations slower than 5 ms. */
  readonly over5Ms: number;
  /** The slowest operation during which no garbage collection ran, in milliseconds. */
  readonly worstWithoutGcMs: number;
  /** Operations slower than 5 ms during which no garbage collection ran. */
  readonly over5MsWithoutGc: number;
  /** The position in the phase of the slowest GC-free operation (0 is the first). */
  readonly worstWithoutGcAt: number;
  /**
   * The most CPU time (user and system, whole process) one GC-free operation took, in
   * milliseconds: unlike wall time, it leaves out the moments the process was not running at all
   * (a host shared with other work takes the CPU away for several milliseconds at a time).
   */
  readonly worstCpuWithoutGcMs: number;
}

const ENTRIES = 100_000;

/** A clock the stores read through `Date.now()`, moved by hand. */
let fakeNow = Date.UTC(2026, 0, 1);
const realNow = Date.now;

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
}

/** Garbage collections seen so far, as [start, end] in `performance.now()` milliseconds. */
const collections: [number, number][] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push([entry.startTime, entry.startTime + entry.duration]);
});

async function timePhase(phase: string, operations: number, run: (index: number) => void): Promise<StorePauseMeasurement> {
  collectGarbage();
  // Let the collector's background sweeping finish, so that the first operations do not pay for it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const starts = new Float64Array(operations);
  const samples = new Float64Array(operations);
  const cpu = new Float64Array(operations);
  for (let index = 0; index < operations; index++) {
    const cpuFrom = process.cpuUsage();
    const from = performance.now();
    run(index);
    samples[index] = performance.now() - from;
    const used = process.cpuUsage(cpuFrom);
    starts[index] = from;
    cpu[index] = (used.user + used.system) / 1000;
  }
  // GC entries arrive asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const overlapsGc = (index: number) => {
    const start = starts[index]!;
    const end = start + samples[index]!;
    return collections.some(([from, to]) => from < end && to > start);
  };
  const sorted = Float64Array.from(samples).sort();
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? 0;
  let worstWithoutGcMs = 0;
  let worstWithoutGcAt = -1;
  let worstCpuWithoutGcMs = 0;
  let over5MsWithoutGc = 0;
  let over5Ms = 0;
  for (let index = 0; index < operations; index++) {
    const sample = samples[index]!;
    if (sample > 5) over5Ms++;
    // Only slow operations are checked against the GC list: it can hold thousands of entries.
    if (sample <= worstWithoutGcMs && sample <= 5 && cpu[index]! <= worstCpuWithoutGcMs) continue;
    if (overlapsGc(index)) continue;
    worstCpuWithoutGcMs = Math.max(worstCpuWithoutGcMs, Math.min(cpu[index]!, sample));
    if (sample > worstWithoutGcMs) {
      worstWithoutGcMs = sample;
      worstWithoutGcAt = index;
    }
    if (sample > 5) over5MsWithoutGc++;
  }
  return {
    phase,
    operations,
    worstMs: sorted[sorted.length - 1] ?? 0,
    p999Ms: at(0.999),
    medianUs: at(0.5) * 1000,
    over5Ms,
    worstWithoutGcMs,
    over5MsWithoutGc,
    worstWithoutGcAt,
    worstCpuWithoutGcMs,
  };
}

async function measureConfirmation(ENTRIES: number): Promise<StorePauseMeasurement[]> {
  // Tokens minted over 1,000 s (10 ms apart) with a one-hour TTL: 1,000 distinct expiry seconds.
  const store = new ConfirmationTokenStore({ ttlSeconds: 3600 });
  const binding = { principal: 'user:1', channel: 'web' };
  const results = [
    await timePhase('confirmation create, filling to 100k', ENTRIES, (index) => {
      fakeNow += 10;
      store.create('t', { id: index }, 's', binding);
    }),
  ];
  fakeNow += 3_700_000;
  const fresh: string[] = [];
  results.push(
    await timePhase('confirmation create after a mass expiry of 100k', ENTRIES, (index) => {
      fresh.push(store.create('t', { id: index }, 's', binding).token);
    }),
  );
  results.push(
    await timePhase('confirmation consume at 100k', ENTRIES, (index) => {
      store.consume(fresh[index], 't', binding);
    }),
  );
  return results;
}

async function measureRateLimiter(ENTRIES: number): Promise<StorePauseMeasurement[]> {
  const limiter = new InMemoryRateLimiter();
  // Keys first seen over 50 s (0.5 ms apart) with 60 s windows: every bucket expires at its own time.
  const results = [
    await timePhase('rate-limit consume, filling to 100k keys', ENTRIES, (index) => {
      fakeNow += 0.5;
      limiter.consume(`k${index}`);
    }),
  ];
  fakeNow += 120_000;
  results.push(await timePhase('rate-limit consume after a mass expiry of 100k', ENTRIES, (index) => void limiter.consume(`n${index}`)));
  results.push(await timePhase('rate-limit consume of a live key at 100k', ENTRIES, (index) => void limiter.consume(`n${index}`)));
  return results;
}

function pending(id: string, createdAt: Date, expiresAt: Date | null): VerificationRecord {
  return Object.freeze({
    id,
    request: new VerificationRequest('gate:x', 'single', {}, 'agent:worker', id),
    createdAt,
    expiresAt,
    requiredApprovals: 1,
    approvals: Object.freeze([]),
    result: null,
    resolvedAt: null,
  });
}

async function measureVerification(ENTRIES: number): Promise<StorePauseMeasurement[]> {
  const store = new InMemoryVerificationStore({ retentionMs: 3_600_000, maxPending: Number.POSITIVE_INFINITY });
  const t0 = fakeNow;
  const results = [
    await timePhase('verification open, filling to 100k pending (no deadline)', ENTRIES, (index) => {
      store.open(pending(`p${index}`, new Date(t0 + index), null));
    }),
  ];
  const decidedAt = t0 + ENTRIES;
  results.push(
    await timePhase('verification decide at 100k', ENTRIES, (index) => {
      store.decide(`p${index}`, {
        kind: 'grant',
        principal: 'user:reviewer',
        reason: null,
        at: new Date(decidedAt + index),
        subject: null,
        result: VerificationResult.pass('human_verifier', 'user:reviewer'),
      });
    }),
  );
  // Every decided record is past its retention: the next opens meet a mass expiry of 100k.
  const later = decidedAt + ENTRIES + 3_600_000 + 1;
  results.push(
    await timePhase('verification open after a mass expiry of 100k', ENTRIES, (index) => {
      store.open(pending(`q${index}`, new Date(later + index), new Date(later + index + 60_000)));
    }),
  );
  return results;
}

/** Runs every phase with `entries` entries (100,000 by default) and returns its figures. */
export async function measureStorePauses(entries = ENTRIES): Promise<StorePauseMeasurement[]> {
  Date.now = () => fakeNow;
  gcObserver.observe({ entryTypes: ['gc'] });
  try {
    return [...(await measureConfirmation(entries)), ...(await measureRateLimiter(entries)), ...(await measureVerification(entries))];
  } finally {
    gcObserver.disconnect();
    Date.now = realNow;
  }
}

/**
 * Runs every phase `repeats` times after a warm-up and keeps, per phase, the run whose worst GC-free pause is the
 * smallest: a pause the code causes recurs in every run, while the machine descheduling the process
 * (other work on a shared host) does not.
 */
export async function measureStorePausesRepeated(repeats: number): Promise<StorePauseMeasurement[]> {
  // A smaller run first, so that what is measured is optimized code, as in a process that has been
  // serving for a while, not the first pass of the interpreter through each path.
  await measureStorePauses(ENTRIES / 10);
  let best: StorePauseMeasurement[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    const rows = await measureStorePauses();
    best = best.length === 0 ? rows : rows.map((row, index) => (row.worstWithoutGcMs < best[index]!.worstWithoutGcMs ? row : best[index]!));
  }
  return best;
}

const isMain = import.meta.url === `file://${process.argv[1] ?? ''}`;
if (isMain) {
  for (const row of await measureStorePausesRepeated(Number(process.argv[2] ?? 3))) {
    console.log(
      `${row.phase.padEnd(58)} worst ${row.worstMs.toFixed(2).padStart(6)} ms (${row.over5Ms} >5 ms)  ` +
        `without GC ${row.worstWithoutGcMs.toFixed(2).padStart(5)} ms at op ${row.worstWithoutGcAt} (${row.over5MsWithoutGc} >5 ms), ` +
        `on CPU ${row.worstCpuWithoutGcMs.toFixed(2)} ms  ` +
        `p99.9 ${row.p999Ms.toFixed(3)} ms  median ${row.medianUs.toFixed(1)} µs`,
    );
  }
}
