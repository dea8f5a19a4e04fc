import { measurementOf, type RowMeasurement } from '../harness/measure-rows.js';
import { pairedRatio, summarizeSamples, type SampleStats } from '../harness/sample-stats.js';
import type { RedisProcessesMeasurement } from '../redis-processes/measure-redis-processes.js';
import { formatMicros, formatRatio } from './format-numbers.js';
import type { TableReport } from './report-table.js';

/** The column headers of a store table. */
export const STORE_HEADERS: readonly string[] = [
  '#',
  'row',
  'wall µs/call',
  'spread (min–max)',
  '× in-memory (wall)',
  'CPU µs/call (this process)',
  '× in-memory (CPU)',
];

/** The column headers of the two-process table. */
export const PROCESSES_HEADERS: readonly string[] = [
  'processes on one Redis',
  'calls/s, all together',
  'spread (min–max)',
  'calls/s per process',
  '× 1 process',
  'CPU µs/call, callers',
  'CPU µs/call, Redis',
];

/** `min–max (±x %)` of `stats`. */
export function spread(stats: SampleStats, format: (value: number) => string): string {
  return `${format(stats.min)}–${format(stats.max)} (±${stats.spreadPercent.toFixed(1)} %)`;
}

/** One store row: wall time (what the caller waits) and CPU time (what the host pays), each against the in-memory row of the set. */
function storeLine(measurement: RowMeasurement, baseline: RowMeasurement): string[] {
  const cpu = summarizeSamples(measurement.cpuSamples);
  return [
    measurement.row.id,
    measurement.row.label,
    formatMicros(measurement.stats.median),
    spread(measurement.stats, formatMicros),
    formatRatio(pairedRatio(measurement.wallSamples, baseline.wallSamples)),
    formatMicros(cpu.median),
    formatRatio(pairedRatio(measurement.cpuSamples, baseline.cpuSamples)),
  ];
}

function callsPerSecond(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/**
 * The store tables: rows S (rate limiter) and I (rate limiter and an idempotency key per call),
 * each store against the in-memory row of its set by paired ratios of wall and of CPU time; and
 * the two-process Redis throughput against one process in the same run.
 */
export function buildStoreReport(measurements: readonly RowMeasurement[], processes: RedisProcessesMeasurement): TableReport {
  const set = (group: RowMeasurement['row']['group']): string[][] => {
    const rows = measurements.filter((measurement) => measurement.row.group === group);
    return rows.map((measurement) => storeLine(measurement, measurementOf(measurements, measurement.row.baseline ?? measurement.row.id)));
  };
  const { one, two, settings, verification } = processes;
  const processLine = (name: string, figures: RedisProcessesMeasurement['one'], ratio: string): string[] => [
    name,
    callsPerSecond(figures.totalPerSecond.median),
    spread(figures.totalPerSecond, callsPerSecond),
    figures.perProcessPerSecond.map((stats) => callsPerSecond(stats.median)).join(' + '),
    ratio,
    figures.workerCpuMicrosPerCall.median.toFixed(0),
    figures.redisCpuMicrosPerCall.median.toFixed(0),
  ];
  return {
    tables: [
      {
        title: "Stores: row 3's production call with its rate limiter in each store (µs per call)",
        headers: STORE_HEADERS,
        rows: set('store-rate-limit'),
      },
      {
        title: 'Stores: the same with a fresh idempotency key on every call, kept in the same store (µs per call)',
        headers: STORE_HEADERS,
        rows: set('store-idempotency'),
      },
      {
        title: `Two processes on one Redis: shared rate-limit budget and idempotency keys (Redis ${processes.redisVersion})`,
        headers: PROCESSES_HEADERS,
        rows: [processLine('1 (baseline)', one, formatRatio(1)), processLine('2', two, formatRatio(processes.scaling))],
      },
    ],
    notes: [
      "Store rows S and I make row 3's call (pino at info to a discarding stream, audit on, dispatcher) " +
        "with the registry's rate limiter, " +
        `and in rows I an idempotency store and a fresh idempotency key per call, backed by: 1 the in-memory stores, 2 \`SqliteStores\` ` +
        "on a file in a temporary directory (WAL, the package's defaults: `synchronous = FULL`, " +
        'so every committed change waits for the disk), ' +
        '3 `RedisStores` on a Redis at 127.0.0.1 under a key prefix of this run (deleted afterwards). ' +
        'Rows S and I take turns with every ' +
        `other row of the suite. They are timed by wall clock, since a Redis round trip or an fsync is time the caller waits without ` +
        `spending CPU; the CPU time of this process over the same batches is shown beside it. Ratios are paired against row S1 or I1. ` +
        `Row S0 is the floor of anything that waits for Redis: one \`PING\` round trip to the same server through a client of the ` +
        `\`redis\` package, no Milpa.`,
      `Two processes: ${settings.concurrency} concurrent callers in each of one or two Node processes (forked, \`--import tsx\`), ` +
        `each making rows I's call (the rate limiter's one bucket and budget, and a fresh idempotency key per call, all in one Redis) ` +
        `for ${(settings.windowMs / 1000).toFixed(1)} s windows; ${settings.rounds} rounds of one process alone and two together, ` +
        `in alternating order, after a warm-up. Medians over rounds; "× 1 process" is the median of each round's ratio. ` +
        `CPU per call: the callers' \`process.cpuUsage()\` and Redis's \`INFO cpu\` (used_cpu_user + used_cpu_sys) over each window.`,
      `Correctness in the same run: under a shared budget of ${verification.budget.toLocaleString('en-US')} calls per 60 s, ` +
        'the two processes made ' +
        `${verification.attempted.toLocaleString('en-US')} calls at once; ${verification.succeeded.toLocaleString('en-US')} ran and ` +
        `${verification.rateLimited.toLocaleString('en-US')} were refused ` +
        `with RATE_LIMITED (the budget is spent exactly, never exceeded). Both processes then presented the same ` +
        `${verification.sharedKeys.toLocaleString('en-US')} idempotency keys at once: ` +
        `the handler ran ${verification.handlerRuns.toLocaleString('en-US')} times, and ` +
        `${verification.replayed.toLocaleString('en-US')} calls were answered with the first call's result. ` +
        'The bench fails when either does not hold.',
    ],
  };
}
