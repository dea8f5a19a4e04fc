/**
 * HTTP throughput of `@milpa/mcp`'s `serveHttp` against a bare MCP SDK server with the same no-op
 * tool, in one run: `pnpm --filter @milpa/benchmarks run bench:http` (about a minute). Each server
 * runs in a process of its own; this process is the load generator (K concurrent sessions, each
 * making one `tools/call` after another). The servers take turns in rounds (A B, then B A, …),
 * so the machine's drift reaches all of them; the table reports the median round.
 * `BENCH_HTTP_PROFILE=1` instead runs one window per server under the V8 CPU profiler and prints
 * where the CPU went. Settings: see `readSettings`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ARGS, BENCH_RESULT, BENCH_TOOL_NAME, INVALID_ARGS } from '../fixtures/bench-tool.js';
import { summarizeSamples } from '../harness/sample-stats.js';
import { describeEnvironment } from '../report/environment.js';
import { BENCH_HTTP_TOKEN } from './bench-http-token.js';
import type { HttpServerKind } from './http-bench-messages.js';
import { HttpServerProcess } from './http-server-process.js';
import type { McpLoadSession } from './mcp-load-session.js';
import { openRawMcpHttpSession } from './raw-mcp-http-session.js';
import { connectSdkClient, openSdkMcpHttpSession, textOf } from './sdk-mcp-http-session.js';
import { snapshotMilpaPackages } from './snapshot-milpa-packages.js';
import { summarizeCpuProfile, type CpuProfile, type ProfileSummary } from './summarize-cpu-profile.js';

const COMMAND = 'pnpm --filter @milpa/benchmarks run bench:http';
const RESULTS_DIRECTORY = fileURLToPath(new URL('../../results/', import.meta.url));
const LABELS: Readonly<Record<HttpServerKind, string>> = {
  bare: 'bare SDK `McpServer` + `StreamableHTTPServerTransport`',
  'bare-pino': 'bare SDK, handler writes one pino line',
  'bare-resumable': 'bare SDK + `InMemoryEventStore` (resumable)',
  milpa: 'Milpa `serveHttp`, static token auth, audit line to pino',
  'milpa-noresume': 'Milpa as above, `resumableStreams: false`',
  'milpa-compare': 'Milpa as above, packages at `BENCH_HTTP_MILPA_COMPARE_REF`',
};
const LOGS: Readonly<Record<HttpServerKind, boolean>> = {
  bare: false,
  'bare-pino': true,
  'bare-resumable': false,
  milpa: true,
  'milpa-noresume': true,
  'milpa-compare': true,
};

interface Settings {
  readonly servers: readonly HttpServerKind[];
  readonly concurrency: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly client: 'raw' | 'sdk';
  readonly milpaRef: string | undefined;
  readonly compareRef: string | undefined;
  readonly profile: boolean;
}

function numberSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/**
 * The run's settings, from the environment: `BENCH_HTTP_SERVERS` (comma-separated kinds, default
 * all five; the profile: `bare,milpa`), `BENCH_HTTP_CONCURRENCY` (sessions per server, 8),
 * `BENCH_HTTP_ROUNDS` (10), `BENCH_HTTP_SECONDS` (per server and round, 1.5),
 * `BENCH_HTTP_WARMUP_SECONDS` (3), `BENCH_HTTP_CLIENT` (`raw` or `sdk`), `BENCH_HTTP_MILPA_REF` (a git
 * ref whose Milpa packages to measure instead of the working tree's), `BENCH_HTTP_MILPA_COMPARE_REF`
 * (a second ref, served as `milpa-compare` beside `milpa`), `BENCH_HTTP_PROFILE=1` and
 * `BENCH_HTTP_PROFILE_SECONDS` (8).
 */
function readSettings(): Settings {
  const profile = process.env['BENCH_HTTP_PROFILE'] === '1';
  // Bare and Milpa first, so that they run back to back in every round; then the diagnostics.
  const compareRef = process.env['BENCH_HTTP_MILPA_COMPARE_REF'];
  const servers = (
    process.env['BENCH_HTTP_SERVERS'] ??
    (profile ? 'bare,milpa' : compareRef ? 'bare,milpa,milpa-compare' : 'bare,milpa,milpa-noresume,bare-resumable,bare-pino')
  ).split(',') as HttpServerKind[];
  for (const kind of servers) if (!(kind in LABELS)) throw new Error(`unknown server ${kind} (${Object.keys(LABELS).join(', ')})`);
  if (servers.includes('milpa-compare') && !compareRef) throw new Error('milpa-compare needs BENCH_HTTP_MILPA_COMPARE_REF');
  const client = process.env['BENCH_HTTP_CLIENT'] ?? 'raw';
  if (client !== 'raw' && client !== 'sdk') throw new Error('BENCH_HTTP_CLIENT must be raw or sdk');
  const ref = process.env['BENCH_HTTP_MILPA_REF'];
  return {
    servers,
    // 8 sessions keep one server core busy with a 2-core machine's other core driving them.
    concurrency: numberSetting('BENCH_HTTP_CONCURRENCY', 8),
    rounds: profile ? 1 : numberSetting('BENCH_HTTP_ROUNDS', 10),
    seconds: numberSetting(profile ? 'BENCH_HTTP_PROFILE_SECONDS' : 'BENCH_HTTP_SECONDS', profile ? 8 : 1.5),
    warmupSeconds: numberSetting('BENCH_HTTP_WARMUP_SECONDS', 3),
    client,
    milpaRef: ref === undefined || ref === '' ? undefined : ref,
    compareRef: compareRef === undefined || compareRef === '' ? undefined : compareRef,
    profile,
  };
}

function progress(message: string): void {
  process.stderr.write(`[bench:http] ${message}\n`);
}

function assertThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** One server's figures in one round. */
interface RoundSample {
  readonly calls: number;
  readonly serverCpuMicros: number;
  readonly callsPerSecond: number;
  readonly serverCpuMicrosPerCall: number;
  readonly serverLoopUtilization: number;
  /** Server CPU over wall time: below the loop's utilization when the process waited for a core. */
  readonly serverCores: number;
  readonly clientCpuMicrosPerCall: number;
}

/** Checks once, through the SDK's own client, that the server lists and runs the tool, refuses invalid arguments, and logs. */
async function checkServer(server: HttpServerProcess): Promise<void> {
  const client = await connectSdkClient(server.url, BENCH_HTTP_TOKEN);
  try {
    const { tools } = await client.listTools();
    assertThat(
      tools.some((tool) => tool.name === BENCH_TOOL_NAME),
      `${server.kind}: tools/list lacks ${BENCH_TOOL_NAME}`,
    );
    await server.start();
    const result = await client.callTool({ name: BENCH_TOOL_NAME, arguments: { ...BENCH_ARGS } });
    assertThat(result.isError !== true && textOf(result) === BENCH_RESULT, `${server.kind}: unexpected result ${JSON.stringify(result)}`);
    const refused = await client.callTool({ name: BENCH_TOOL_NAME, arguments: { ...INVALID_ARGS } });
    assertThat(refused.isError === true, `${server.kind}: invalid arguments gave ${JSON.stringify(refused)}`);
    const window = await server.stop();
    assertThat(!LOGS[server.kind] || window.lines >= 1, `${server.kind}: the call wrote no log line`);
  } finally {
    await client.close();
  }
  if (server.kind.startsWith('milpa')) {
    // The authenticator really runs: an unknown token is refused before anything else.
    const unknown = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer not-a-granted-token',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    await unknown.arrayBuffer();
    assertThat(unknown.status === 401, `milpa: a request with an unknown token was answered ${unknown.status}, not 401`);
  }
}

/** Runs every session's call loop until `seconds` have passed; returns the calls made. */
async function drive(sessions: readonly McpLoadSession[], seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let calls = 0;
  await Promise.all(
    sessions.map(async (session) => {
      while (performance.now() < deadline) {
        await session.call();
        calls += 1;
      }
    }),
  );
  return calls;
}

async function measureWindow(
  server: HttpServerProcess,
  sessions: readonly McpLoadSession[],
  seconds: number,
  profileFile?: string,
): Promise<RoundSample> {
  await server.start(profileFile);
  const clientCpu = process.cpuUsage();
  const startedAt = performance.now();
  const calls = await drive(sessions, seconds);
  const wallMs = performance.now() - startedAt;
  const client = process.cpuUsage(clientCpu);
  const window = await server.stop();
  // Every call completed before `stop`, so a logging server wrote exactly one line per call.
  assertThat(!LOGS[server.kind] || window.lines === calls, `${server.kind}: ${window.lines} log lines for ${calls} calls`);
  return {
    calls,
    serverCpuMicros: window.cpuMicros,
    callsPerSecond: calls / (wallMs / 1000),
    serverCpuMicrosPerCall: window.cpuMicros / calls,
    serverLoopUtilization: window.eventLoopUtilization,
    serverCores: window.cpuMicros / (window.wallMs * 1000),
    clientCpuMicrosPerCall: (client.user + client.system) / calls,
  };
}

const median = (values: readonly number[]): number => summarizeSamples(values).median;
const fixed = (value: number, digits: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function renderTable(settings: Settings, samples: ReadonlyMap<HttpServerKind, RoundSample[]>, header: string): string {
  const bare = samples.get('bare');
  const lines = [
    '| server | calls/s | × bare | server CPU µs/call | × bare | server loop busy | server cores used | client CPU µs/call |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const kind of settings.servers) {
    const rounds = samples.get(kind) ?? [];
    const rate = summarizeSamples(rounds.map((round) => round.callsPerSecond));
    const cpu = median(rounds.map((round) => round.serverCpuMicrosPerCall));
    // Paired: this round's figure over the bare server's figure of the same round.
    const paired = (pick: (round: RoundSample) => number): string =>
      bare === undefined || kind === 'bare' ? '' : `${fixed(median(rounds.map((round, index) => pick(round) / pick(bare[index]!))), 2)}×`;
    lines.push(
      `| ${LABELS[kind]} | ${fixed(rate.median, 0)} ±${fixed(rate.spreadPercent, 0)} % | ${paired((round) => round.callsPerSecond)} | ` +
        `${fixed(cpu, 1)} | ${paired((round) => round.serverCpuMicrosPerCall)} | ` +
        `${fixed(median(rounds.map((round) => round.serverLoopUtilization)) * 100, 0)} % | ` +
        `${fixed(median(rounds.map((round) => round.serverCores)), 2)} | ` +
        `${fixed(median(rounds.map((round) => round.clientCpuMicrosPerCall)), 1)} |`,
    );
  }
  const milpa = samples.get('milpa');
  let verdict = '';
  if (bare !== undefined && milpa !== undefined) {
    const ratio = median(milpa.map((round, index) => round.callsPerSecond / bare[index]!.callsPerSecond));
    const perRound = milpa.map((round, index) => fixed(round.callsPerSecond / bare[index]!.callsPerSecond, 2)).join(', ');
    const cpuRatio = median(milpa.map((round, index) => round.serverCpuMicrosPerCall / bare[index]!.serverCpuMicrosPerCall));
    const cores = median([...bare, ...milpa].map((round) => round.serverCores));
    const loop = median([...bare, ...milpa].map((round) => round.serverLoopUtilization));
    // A server whose loop is busy but which gets much less than a core is waiting for the CPU: the
    // machine is shared, calls/s measure the scheduler as much as the server; CPU per call does not.
    const contended =
      cores < loop * 0.85
        ? ` The servers used ${fixed(cores, 2)} of a core while their loops were ${fixed(loop * 100, 0)} % busy: ` +
          'other processes took the CPU, so calls/s (and their ratio) are noisy; ' +
          `the CPU per call ratio (${fixed(cpuRatio, 2)}× bare, i.e. ${fixed(1 / cpuRatio, 2)}× the calls per CPU-second) ` +
          'is the steadier figure.'
        : '';
    verdict =
      `\nTarget: Milpa ≥ 0.9× the bare SDK server's calls/s — **${ratio >= 0.9 ? 'MET' : 'MISSED'}** ` +
      `(${fixed(ratio, 2)}×; per round: ${perRound}).${contended}\n`;
  }
  return `${header}\n${lines.join('\n')}\n${verdict}`;
}

/** The `BENCH_HTTP_*` variables this run was given, as a command prefix. */
function settingsPrefix(): string {
  return Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_HTTP_') && name !== 'BENCH_HTTP_MILPA_ROOT')
    .map(([name, value]) => `${name}=${value ?? ''} `)
    .sort()
    .join('');
}

function renderHeader(settings: Settings, milpaSource: string): string {
  const environment = describeEnvironment();
  return [
    `Run: \`${settingsPrefix()}${COMMAND}\` — ${environment.date}, commit ${environment.commit}, ${environment.machine}, ` +
      `Node ${environment.node}, @modelcontextprotocol/sdk ${environment.packages['@modelcontextprotocol/sdk'] ?? '?'}; ` +
      `Milpa packages from ${milpaSource}.`,
    '',
    'Each server runs in its own process; ' +
      `the load generator (this process) keeps ${settings.concurrency} stateful sessions busy, each making`,
    `one \`tools/call\` of the no-op tool after another (${
      settings.client === 'raw'
        ? "raw keep-alive `node:http` requests with the SDK client's headers, " +
          '`Authorization: Bearer` included, the SSE answer checked by substring'
        : 'the SDK `Client` over `StreamableHTTPClientTransport`, `Authorization: Bearer` included'
    }).`,
    `${settings.warmupSeconds} s warm-up per server, then ${settings.rounds} rounds of ${settings.seconds} s per server, ` +
      'servers taking turns (A B, then B A, …).',
    'Medians over rounds; "× bare" is the median over rounds of the ratio to the bare server in the same round. ' +
      'Server CPU: `process.cpuUsage()`',
    'of the server process over the window (all threads, GC included) divided by the calls; "loop busy": its event-loop utilization.',
    '',
  ].join('\n');
}

/** A profiled window: the summary, the calls made and the server's measured CPU over it. */
interface ProfiledWindow {
  readonly summary: ProfileSummary;
  readonly calls: number;
  readonly cpuMicros: number;
  readonly file: string;
}

/**
 * µs of CPU per call for `ms` of profile samples. The sampler attributes wall time: on a loaded
 * machine a sample also covers time the process waited for a core. Scaling the busy samples to the
 * CPU the process really used (`process.cpuUsage()` over the same window) removes that, assuming
 * the waiting fell evenly over the code.
 */
function cpuMicrosPerCall(window: ProfiledWindow, ms: number): number {
  const busy = window.summary.totalMs - window.summary.idleMs;
  return ((ms / busy) * window.cpuMicros) / window.calls;
}

function renderProfile(kind: HttpServerKind, window: ProfiledWindow, baseline: ProfiledWindow | undefined): string {
  const { summary, calls, file } = window;
  const busy = summary.totalMs - summary.idleMs;
  const perCall = (ms: number): string => fixed(cpuMicrosPerCall(window, ms), 1);
  const percent = (ms: number): string => `${fixed((ms / busy) * 100, 1)} %`;
  const out = [
    `### ${LABELS[kind]} — ${calls.toLocaleString('en-US')} calls, ${fixed(window.cpuMicros / calls, 0)} µs CPU/call; ` +
      `samples: ${fixed(busy, 0)} ms busy of ${fixed(summary.totalMs, 0)} ms (${file})`,
    '',
  ];
  out.push('| category (self time) | % busy | µs CPU/call | µs/call beyond bare |', '|---|---:|---:|---:|');
  for (const entry of summary.categories) {
    const bareEntry = baseline?.summary.categories.find((other) => other.name === entry.name);
    const bareMicros = baseline === undefined || bareEntry === undefined ? 0 : cpuMicrosPerCall(baseline, bareEntry.ms);
    const beyond = baseline === undefined ? '' : fixed(cpuMicrosPerCall(window, entry.ms) - bareMicros, 1);
    out.push(`| ${entry.name} | ${percent(entry.ms)} | ${perCall(entry.ms)} | ${beyond} |`);
  }
  out.push('', '| top self time | category | % busy | µs CPU/call |', '|---|---|---:|---:|');
  for (const entry of summary.selfByFunction.slice(0, 30))
    out.push(`| \`${entry.name}\` | ${entry.category} | ${percent(entry.ms)} | ${perCall(entry.ms)} |`);
  const ownCode = summary.totalByFunction.filter((entry) => entry.category.startsWith('@milpa/'));
  if (ownCode.length > 0) {
    out.push('', '| Milpa functions, inclusive time (self + callees) | category | % busy | µs CPU/call |', '|---|---|---:|---:|');
    for (const entry of ownCode.slice(0, 40))
      out.push(`| \`${entry.name}\` | ${entry.category} | ${percent(entry.ms)} | ${perCall(entry.ms)} |`);
  }
  const sdk = summary.totalByFunction.filter((entry) => !entry.category.startsWith('@milpa/') && entry.category !== 'V8 (program)');
  out.push('', '| other functions, inclusive time | category | % busy | µs CPU/call |', '|---|---|---:|---:|');
  for (const entry of sdk.slice(0, 30)) out.push(`| \`${entry.name}\` | ${entry.category} | ${percent(entry.ms)} | ${perCall(entry.ms)} |`);
  if (baseline !== undefined) {
    // The same SDK, hono, zod and Node functions in both servers: which of them cost more per call
    // under Milpa (work Milpa's choices cause outside its own code: extra SSE events, bigger results…).
    const bareTotals = new Map(baseline.summary.totalByFunction.map((entry) => [entry.name, cpuMicrosPerCall(baseline, entry.ms)]));
    const generic = new Set(['(root)', 'runMicrotasks', 'processTicksAndRejections node:internal/process/task_queues:67']);
    const shared = summary.totalByFunction
      .filter((entry) => !entry.category.startsWith('@milpa/') && !generic.has(entry.name) && bareTotals.has(entry.name))
      .map((entry) => ({ entry, milpa: cpuMicrosPerCall(window, entry.ms), bare: bareTotals.get(entry.name)! }))
      .sort((left, right) => right.milpa - right.bare - (left.milpa - left.bare));
    out.push(
      '',
      '| same function in both servers, inclusive | category | µs CPU/call bare | µs CPU/call here | difference |',
      '|---|---|---:|---:|---:|',
    );
    for (const { entry, milpa, bare } of shared.slice(0, 20))
      out.push(`| \`${entry.name}\` | ${entry.category} | ${fixed(bare, 1)} | ${fixed(milpa, 1)} | ${fixed(milpa - bare, 1)} |`);
    const only = summary.totalByFunction.filter((entry) => !entry.category.startsWith('@milpa/') && !bareTotals.has(entry.name));
    out.push('', '| functions only this server runs (not Milpa code), inclusive | category | µs CPU/call |', '|---|---|---:|');
    for (const entry of only.slice(0, 15)) out.push(`| \`${entry.name}\` | ${entry.category} | ${perCall(entry.ms)} |`);
  }
  return `${out.join('\n')}\n`;
}

async function openSessions(settings: Settings, server: HttpServerProcess, agent: Agent): Promise<McpLoadSession[]> {
  const sessions: McpLoadSession[] = [];
  for (let index = 0; index < settings.concurrency; index++) {
    sessions.push(
      settings.client === 'raw'
        ? await openRawMcpHttpSession(server.url, agent, BENCH_HTTP_TOKEN)
        : await openSdkMcpHttpSession(server.url, BENCH_HTTP_TOKEN),
    );
  }
  return sessions;
}

async function main(): Promise<void> {
  const settings = readSettings();
  const startedAt = performance.now();
  const snapshot = settings.milpaRef === undefined ? undefined : snapshotMilpaPackages(settings.milpaRef);
  const compare = settings.compareRef === undefined ? undefined : snapshotMilpaPackages(settings.compareRef);
  const milpaSource =
    (snapshot === undefined ? 'the working tree' : `commit ${snapshot.commit} (\`BENCH_HTTP_MILPA_REF=${settings.milpaRef ?? ''}\`)`) +
    (compare === undefined ? '' : `; \`milpa-compare\` from commit ${compare.commit}`);
  const servers: HttpServerProcess[] = [];
  const agents: Agent[] = [];
  try {
    for (const kind of settings.servers) {
      progress(`starting the ${kind} server`);
      servers.push(await HttpServerProcess.start(kind, { milpaRoot: kind === 'milpa-compare' ? compare?.root : snapshot?.root }));
    }
    const sessions = new Map<HttpServerProcess, McpLoadSession[]>();
    for (const server of servers) {
      await checkServer(server);
      const agent = new Agent({ keepAlive: true, maxSockets: settings.concurrency });
      agents.push(agent);
      sessions.set(server, await openSessions(settings, server, agent));
      progress(`${server.kind}: checked; ${settings.concurrency} sessions open; warming up ${settings.warmupSeconds} s`);
      await drive(sessions.get(server)!, settings.warmupSeconds);
    }
    const samples = new Map<HttpServerKind, RoundSample[]>(settings.servers.map((kind) => [kind, []]));
    const profiles = new Map<HttpServerKind, ProfiledWindow>();
    const profileDirectory = join(process.env['TMPDIR'] ?? tmpdir(), 'milpa-bench-profiles');
    if (settings.profile) mkdirSync(profileDirectory, { recursive: true });
    for (let round = 0; round < settings.rounds; round++) {
      // Forward in even rounds, backward in odd ones (A B, B A, A B …): a drift of the machine's speed
      // reaches every server alike instead of always favouring the one that goes first.
      for (let turn = 0; turn < servers.length; turn++) {
        const server = servers[round % 2 === 0 ? turn : servers.length - 1 - turn]!;
        const profileFile = settings.profile ? join(profileDirectory, `http-${server.kind}-${Date.now()}.cpuprofile`) : undefined;
        const sample = await measureWindow(server, sessions.get(server)!, settings.seconds, profileFile);
        samples.get(server.kind)!.push(sample);
        progress(
          `round ${round + 1}/${settings.rounds} ${server.kind.padEnd(9)} ${fixed(sample.callsPerSecond, 0).padStart(7)} calls/s  ` +
            `server ${fixed(sample.serverCpuMicrosPerCall, 1)} µs/call (loop ${fixed(sample.serverLoopUtilization * 100, 0)} %)  ` +
            `client ${fixed(sample.clientCpuMicrosPerCall, 1)} µs/call`,
        );
        if (profileFile !== undefined) {
          const summary = summarizeCpuProfile(JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile);
          profiles.set(server.kind, { summary, calls: sample.calls, cpuMicros: sample.serverCpuMicros, file: profileFile });
        }
      }
    }
    for (const list of sessions.values()) await Promise.allSettled(list.map((session) => session.close()));

    const header = renderHeader(settings, milpaSource);
    const table = renderTable(settings, samples, header);
    if (!settings.profile) {
      process.stdout.write(`\n${table}\n`);
      mkdirSync(RESULTS_DIRECTORY, { recursive: true });
      const target = join(RESULTS_DIRECTORY, 'http-throughput.md');
      writeFileSync(target, `# HTTP throughput: @milpa/mcp serveHttp against a bare MCP SDK server\n\n${table}`);
      progress(`wrote ${target} in ${fixed((performance.now() - startedAt) / 1000, 0)} s total`);
      return;
    }
    const bare = profiles.get('bare');
    const sections = settings.servers.map((kind) => renderProfile(kind, profiles.get(kind)!, kind === 'bare' ? undefined : bare));
    const report =
      `# HTTP server CPU profiles (\`BENCH_HTTP_PROFILE=1 ${COMMAND}\`)\n\n${header}` +
      `Under the V8 sampling profiler (100 µs interval), one ${settings.seconds} s window per server; the profiler slows both servers. ` +
      "µs CPU/call: a function's share of the busy samples × the process CPU measured over the window ÷ calls.\n\n" +
      `${table}\n${sections.join('\n')}`;
    process.stdout.write(`\n${report}\n`);
    mkdirSync(RESULTS_DIRECTORY, { recursive: true });
    const target = join(RESULTS_DIRECTORY, 'http-profile.md');
    writeFileSync(target, report);
    progress(`wrote ${target}; profiles in ${profileDirectory} (open them in Chrome DevTools → Performance)`);
  } finally {
    for (const agent of agents) agent.destroy();
    await Promise.allSettled(servers.map((server) => server.close()));
    for (const copy of [snapshot, compare]) if (copy !== undefined) rmSync(copy.root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`[bench:http] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
