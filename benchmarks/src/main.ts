/**
 * Milpa's benchmark suite: the pipeline's cost against the floor, a hand-written pipeline and the
 * TypeScript peers, in one process and one run. Prints a table and regenerates docs/benchmarks.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InterceptionSlot, defineTool, silentLogger, type EventListener } from '@milpa/core';
import type { CallRow } from './harness/call-row.js';
import { measureRegistration } from './harness/measure-registration.js';
import { measureRows, type MeasureSettings, type RowMeasurement } from './harness/measure-rows.js';
import { pairedRatio, summarizeSamples } from './harness/sample-stats.js';
import { BENCH_ARGS, BENCH_RESULT } from './fixtures/bench-tool.js';
import { createProductionLogger } from './fixtures/discard-stream.js';
import { createMilpaSetup, distinctToolOptions, fillerToolOptions } from './fixtures/milpa-setup.js';
import { createHeadlineRows } from './fixtures/headline-rows.js';
import { describeEnvironment, withEndLoadAverage } from './report/environment.js';
import { renderMarkdown } from './report/render-markdown.js';
import { renderTerminal } from './report/render-terminal.js';
import { buildAdapterReport, buildAdapterTargets } from './report/adapter-report.js';
import { buildStoreReport } from './report/store-report.js';
import { buildSuiteReport } from './report/suite-report.js';
import { createFloorRow } from './rows/floor-row.js';
import { createMilpaMcpRow } from './rows/milpa-mcp-row.js';
import { createMilpaRow } from './rows/milpa-row.js';
import { createMilpaStoreRow } from './rows/milpa-store-row.js';
import { createRedisPingRow } from './rows/redis-ping-row.js';
import { createAdapterRows } from './rows/adapter-rows.js';
import { openBenchStores, type BenchStores } from './fixtures/bench-stores.js';
import { REDIS_PROCESSES_SETTINGS, measureRedisProcesses } from './redis-processes/measure-redis-processes.js';
import { createLangChainRow } from './rows/peers/langchain-row.js';
import { createMcpSdkRow } from './rows/peers/mcp-sdk-row.js';
import { createOpenAiAgentsRow } from './rows/peers/openai-agents-row.js';
import { createVercelAiRow } from './rows/peers/vercel-ai-row.js';
import { createRouteMessageRow } from './route-message.js';
import { createProviderShapesRows } from './rows/provider-shapes-row.js';
import { createToolsForRow } from './tools-for-turn.js';

const COMMAND = 'pnpm bench';
// BENCH_QUICK=1: rows 1–5 and 11 (or BENCH_ROWS=1,2,3), fewer repeats, nothing written — for before/after checks while optimizing.
const QUICK = process.env['BENCH_QUICK'] === '1';
const QUICK_ROWS: ReadonlySet<string> = new Set((process.env['BENCH_ROWS'] ?? '1,2,3,4,5,11').split(','));
const SETTINGS: MeasureSettings = QUICK ? { batchMs: 60, warmupMs: 300, repeats: 15 } : { batchMs: 60, warmupMs: 500, repeats: 41 };
const REGISTRATION_TOOLS = 10_000;
const REGISTRATION_REPEATS = 5;
// Far above anything a run spends (a 60 s window never sees this many calls), so no row is ever throttled.
const BUDGET = 1_000_000_000_000;
const CACHED_VALUE = 'cached';

const METHOD = [
  `Every row makes the same call to a no-op tool (input: one required string, one integer bounded 0–100,`,
  `additionalProperties false) with valid arguments, awaited one after another. Each row is checked once`,
  `before timing (the expected result, one log line per call where it logs, and a refusal of invalid`,
  `arguments), warmed up for at least ${SETTINGS.warmupMs} ms, ` +
    `then timed in ${SETTINGS.repeats} batches of about ${SETTINGS.batchMs} ms; the rows take turns`,
  `batch by batch. A batch is timed in process CPU time (user + system), not wall time, so that time the`,
  `machine gives to other processes is not counted (the store rows S and I, which wait for Redis or the disk,`,
  `are timed by wall clock instead; see below); no GC is forced between batches. Reported: the median`,
  `batch in µs per call and the spread (fastest–slowest batch, ± half that range in % of the median).`,
  `Ratios are paired: the median, over the repeats, of one row's batch divided by the other row's batch of`,
  `the same repeat (they ran back to back), so the shared machine's fast and slow moments divide out.`,
  `"× hand-written" divides by the hand-written row with the same logging, named in brackets.`,
  `The headline rows 2 and 3 are the production configuration: pino at info writing to a stream that`,
  `discards the bytes, on both sides; row 2 writes one pino line per call with tool, principal, channel,`,
  `took_ms and args. Rows 4–6 and the scale rows log nothing (row 4 calls a no-op hook, Milpa audits to a`,
  `logger that disables every level, so no audit line is built).`,
  `Milpa rows: \`ToolRegistry\` with an \`EventDispatcher\` (no host listeners), an \`InMemoryRateLimiter\``,
  `whose budget (${BUDGET.toExponential(0)} per 60 s) never trips, audit on, an authenticated \`mcp\` context holding the`,
  `tool's scope, reused for every call. MCP rows: an SDK \`Client\` calls over the SDK's linked in-memory`,
  "transports either a bare SDK `McpServer` (zod strict object; row 7p's handler writes row 2's pino line) " +
    "or `@milpa/mcp`'s `createMcpServer`",
  `serving a row 3 (or row 5) registry, which builds a \`ToolContext\` with a fresh request id per call.`,
  'Peers get zod 4 strict objects for the same schema. ' +
    `Registration: ${REGISTRATION_TOOLS.toLocaleString('en-US')} tools, each with its own`,
  `TypeBox schema object and handler, are \`registry.register(defineTool(options))\`ed into a fresh registry,`,
  `${REGISTRATION_REPEATS} times (wall time; building the options is the host's code and timed apart); once with`,
  `identical shapes (compiled validators can be shared) and once with schemas that all differ (property`,
  `names, bounds, literals, a pattern). Retained heap is measured after two full GCs, beyond the empty`,
  `registry, and includes the options, schemas and handlers (the options alone are measured too, before`,
  `registering); then the last tool is called once.`,
].join('\n');

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Rows 3's production call with its rate limiter (S) and a fresh idempotency key per call (I) in each store. */
function buildStoreRows(stores: BenchStores): CallRow[] {
  const sets = [stores.memory(), stores.sqlite, stores.redis];
  const rows: CallRow[] = [];
  for (const kind of ['rate-limit', 'idempotency'] as const) {
    sets.forEach((set, index) => {
      const letter = kind === 'rate-limit' ? 'S' : 'I';
      rows.push(
        createMilpaStoreRow({
          id: `${letter}${index + 1}`,
          stores: set,
          kind,
          production: createProductionLogger(),
          budget: BUDGET,
          baseline: `${letter}1`,
        }),
      );
    });
  }
  return [...rows, createRedisPingRow(stores.pingRedis, 'S1')];
}

async function buildRows(stores: BenchStores): Promise<CallRow[]> {
  const headline = createHeadlineRows(BUDGET);
  const mcpLog = createProductionLogger();
  const answerFromCache: EventListener = (_eventName, payload) => {
    const slot = payload['slot'];
    if (InterceptionSlot.isInstance(slot)) slot.shortCircuit(CACHED_VALUE);
  };
  const cached = createMilpaSetup({ logger: silentLogger, budget: BUDGET, executingListeners: [answerFromCache] });
  const noopListeners = (count: number): EventListener[] => Array.from({ length: count }, () => () => undefined);

  return [
    createFloorRow(),
    headline.handWritten,
    headline.milpa,
    headline.handWrittenSilent,
    headline.milpaSilent,
    createMilpaRow({
      id: '6',
      label: 'Milpa registry.call (cache listener answers)',
      group: 'suite',
      ...cached,
      expectedData: CACHED_VALUE,
    }),
    createMilpaRow({
      id: '5t',
      label: 'Milpa registry.call (silent audit, telemetry off)',
      group: 'suite',
      ...createMilpaSetup({ logger: silentLogger, budget: BUDGET, telemetry: false }),
      expectedData: BENCH_RESULT,
    }),
    await createMcpSdkRow({ id: '7', label: 'bare SDK McpServer, client.callTool (in-memory)', production: null }),
    await createMcpSdkRow({ id: '7p', label: 'bare SDK McpServer, handler writes one pino line', production: createProductionLogger() }),
    await createMilpaMcpRow({
      id: '8',
      label: 'Milpa createMcpServer, audit line to pino',
      registry: createMilpaSetup({ logger: mcpLog.logger, budget: BUDGET }).registry,
      stream: mcpLog.stream,
    }),
    await createMilpaMcpRow({
      id: '8s',
      label: 'Milpa createMcpServer (silent audit)',
      registry: createMilpaSetup({ logger: silentLogger, budget: BUDGET }).registry,
    }),
    createLangChainRow(),
    createOpenAiAgentsRow(),
    createVercelAiRow(),
    ...[1_000, 10_000].map((tools) =>
      createMilpaRow({
        id: `T${tools}`,
        label: `${tools.toLocaleString('en-US')} tools registered`,
        group: 'tool-count',
        ...createMilpaSetup({ logger: silentLogger, budget: BUDGET, extraTools: tools - 1 }),
        expectedData: BENCH_RESULT,
      }),
    ),
    createRouteMessageRow(10_000),
    createToolsForRow(),
    ...createProviderShapesRows(),
    ...[1, 10].map((listeners) =>
      createMilpaRow({
        id: `L${listeners}`,
        label: `${listeners} host listener${listeners === 1 ? '' : 's'}`,
        group: 'listener-count',
        ...createMilpaSetup({ logger: silentLogger, budget: BUDGET, executedListeners: noopListeners(listeners) }),
        expectedData: BENCH_RESULT,
      }),
    ),
    ...(await createAdapterRows(BUDGET)),
    ...buildStoreRows(stores),
  ];
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const environment = describeEnvironment();
  const stores = await openBenchStores();
  try {
    await runSuite(startedAt, environment, stores);
  } finally {
    await stores.close();
  }
}

async function runSuite(startedAt: number, environment: ReturnType<typeof describeEnvironment>, stores: BenchStores): Promise<void> {
  const rows = await buildRows(stores);
  if (QUICK) {
    const measurements = await measureRows(
      rows.filter((row) => QUICK_ROWS.has(row.id)),
      SETTINGS,
      progress,
    );
    const floor = measurements.find((measurement) => measurement.row.id === '1');
    for (const { row, stats, samples, cpuSamples } of measurements) {
      const baseline = measurements.find((measurement) => measurement.row.id === (row.baseline ?? '4'));
      const versus = (other: RowMeasurement | undefined, name: string): string =>
        other === undefined ? '' : `×${pairedRatio(samples, other.samples).toFixed(2)} ${name}  `;
      // A wall-clock row is compared with its wall-clock baseline only, and shows its CPU time too.
      const wall = row.clock === 'wall';
      const second = row.versus === undefined ? undefined : measurements.find((measurement) => measurement.row.id === row.versus);
      const ratios =
        `${wall ? '' : versus(floor, 'floor')}${versus(baseline, `row ${row.baseline ?? '4'}`)}` +
        `${versus(second, `row ${row.versus ?? ''}`)}`;
      const cpu = wall ? `(CPU ${(summarizeSamples(cpuSamples).median / 1000).toFixed(3)} µs)  ` : '';
      process.stdout.write(
        `${row.id.padEnd(3)} ${row.label.padEnd(46)} ${(stats.median / 1000).toFixed(3).padStart(8)} µs${wall ? ' wall' : ''}  ` +
          `±${stats.spreadPercent.toFixed(0).padStart(3)} %  ${cpu}${ratios}\n`,
      );
    }
    // The adapter targets whose two rows this quick run timed (BENCH_ROWS=A0,A0k,A2,10p times both).
    for (const verdict of buildAdapterTargets(measurements)) {
      process.stdout.write(`${verdict.met ? 'MET   ' : 'MISSED'}  ${verdict.target}: ${verdict.measured}\n`);
    }
    return;
  }
  const measurements = await measureRows(rows, SETTINGS, progress);
  progress(`registering ${REGISTRATION_TOOLS} tools with identical shapes × ${REGISTRATION_REPEATS}`);
  const identical = await measureRegistration(REGISTRATION_TOOLS, REGISTRATION_REPEATS, {
    optionsOf: fillerToolOptions,
    define: (options) => defineTool(options),
    argsOf: () => ({ ...BENCH_ARGS }),
  });
  progress(`registering ${REGISTRATION_TOOLS} tools with distinct schemas × ${REGISTRATION_REPEATS}`);
  const distinct = await measureRegistration(REGISTRATION_TOOLS, REGISTRATION_REPEATS, {
    optionsOf: distinctToolOptions,
    define: (options) => defineTool(options),
    argsOf: (index) => ({ [`title_${index}`]: 'Ada', [`count_${index}`]: 3, tags: [`t${index}-x`] }),
  });
  progress('two processes on one Redis');
  const processes = await measureRedisProcesses(REDIS_PROCESSES_SETTINGS, progress);
  const report = buildSuiteReport(
    withEndLoadAverage(environment),
    METHOD,
    measurements,
    { identical, distinct },
    [buildAdapterReport(measurements), buildStoreReport(measurements, processes)],
    buildAdapterTargets(measurements),
  );

  process.stdout.write(`${renderTerminal(report)}\n`);
  const target = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
  mkdirSync(fileURLToPath(new URL('../../docs/', import.meta.url)), { recursive: true });
  writeFileSync(
    target,
    renderMarkdown(
      report,
      COMMAND,
      [gatewayAppendix()].filter((text) => text !== null),
    ),
  );
  progress(`wrote ${target} in ${((performance.now() - startedAt) / 1000).toFixed(0)} s total`);
}

/**
 * The gateway's overhead, from the last `bench:gateway` run (benchmarks/results/gateway.md, written
 * by its own script: it needs child processes and runs apart), as a section of docs/benchmarks.md
 * with its own date and load; null when that script has not been run.
 */
function gatewayAppendix(): string | null {
  const source = fileURLToPath(new URL('../results/gateway.md', import.meta.url));
  if (!existsSync(source)) return null;
  const text = readFileSync(source, 'utf8').replace(/^# (.*)$/m, '### $1 (µs per call, from `bench:gateway`, run apart)');
  return (
    `${text.trimEnd()}\n\nCopied from [benchmarks/results/gateway.md](../benchmarks/results/gateway.md) ` +
    'when this document was generated; its date and load are its own.'
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
