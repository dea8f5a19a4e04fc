/**
 * What the gateway costs per call: `pnpm --filter @milpa/benchmarks run bench:gateway` (about a
 * minute). One upstream MCP server (a child process on stdio, `bench-upstream.mjs`) is called three
 * ways in the same run, each path with its own upstream process:
 *   1. direct: an SDK `Client` → stdio → the upstream;
 *   2. gateway in-process: `gateway.registry.call()` (the whole governed pipeline, audit line to a
 *      silent logger) → the gateway's `UpstreamConnection` → stdio → the upstream;
 *   3. gateway process: an SDK `Client` → stdio → `milpa-gateway` (the built command) → stdio →
 *      the upstream — the deployment, with one more process hop.
 * Calls are sequential (one in flight per path), so the figure is latency per call. The paths take
 * turns in rounds (1 2 3, then 3 2 1, …) so the machine's drift reaches all of them; the table
 * reports medians over rounds, and the overhead is the median of the per-round differences to
 * "direct", in wall time and in CPU time (the caller's process plus the gateway process; see the
 * report). Settings: `BENCH_GATEWAY_ROUNDS` (9), `BENCH_GATEWAY_CALLS` (per path and round, 400),
 * `BENCH_GATEWAY_WARMUP` (calls per path before the rounds, 300). Writes results/gateway.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolContext } from '@milpa/core';
import { createGateway, parseGatewayConfig, type Gateway } from '@milpa/gateway';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const COMMAND = 'pnpm --filter @milpa/benchmarks run bench:gateway';
const UPSTREAM = fileURLToPath(new URL('./bench-upstream.mjs', import.meta.url));
const GATEWAY_CLI = fileURLToPath(new URL('../../../packages/gateway/dist/cli.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../results/', import.meta.url));
const ARGS = { text: 'hello gateway' };

function setting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
}

function progress(message: string): void {
  process.stderr.write(`[bench:gateway] ${message}\n`);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One way of making the call; `call` resolves with the echoed text. */
interface BenchPath {
  readonly label: string;
  call(): Promise<string>;
  /** CPU microseconds the gateway's own process has used so far, when it is a process of its own (Linux /proc). */
  childCpuMicros?(): number | null;
  close(): Promise<void>;
}

/** The kernel's clock ticks per second (`getconf CLK_TCK`), 100 on every Linux that matters here. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU microseconds (user + system) a process has used, from /proc; null where there is no /proc. */
function processCpuMicros(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ", utime and stime are fields 12 and 13 (0-based).
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

function ownCpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

async function stdioClient(command: string, args: string[]): Promise<{ client: Client; transport: StdioClientTransport }> {
  const client = new Client({ name: 'bench-gateway', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
  await client.connect(transport);
  return { client, transport };
}

async function directPath(): Promise<BenchPath> {
  const { client } = await stdioClient(process.execPath, [UPSTREAM]);
  return {
    label: 'direct: SDK client → stdio → upstream',
    call: async () => textOf(await client.callTool({ name: 'echo', arguments: { ...ARGS } })),
    close: () => client.close(),
  };
}

/** A rate budget no benchmark reaches: the limiter still runs on every call. */
const UNLIMITED = { windowSeconds: 60, maxTokens: 1e12 };

async function inProcessPath(): Promise<BenchPath> {
  const gateway: Gateway = await createGateway(
    parseGatewayConfig({ upstreams: [{ name: 'up', command: process.execPath, args: [UPSTREAM] }], rateLimit: UNLIMITED }, { env: {} }),
  );
  await gateway.whenReady();
  const context = ToolContext.mcp('bench', 'agent:bench', []);
  return {
    label: 'gateway in-process: `registry.call` (full pipeline) → stdio → upstream',
    call: async () => {
      const result = await gateway.registry.call('up_echo', ARGS, context);
      if (!result.success) throw new Error(`gateway call failed: ${result.error}`);
      return (result.getContent() ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');
    },
    close: () => gateway.close(),
  };
}

async function processPath(): Promise<BenchPath> {
  if (!existsSync(GATEWAY_CLI)) throw new Error(`${GATEWAY_CLI} is missing: run \`pnpm --filter @milpa/gateway run build\` first`);
  const directory = mkdtempSync(join(tmpdir(), 'milpa-bench-gateway-'));
  const config = join(directory, 'gateway.json');
  writeFileSync(config, JSON.stringify({ upstreams: [{ name: 'up', command: process.execPath, args: [UPSTREAM] }], rateLimit: UNLIMITED }));
  const { client, transport } = await stdioClient(process.execPath, [GATEWAY_CLI, '--config', config]);
  const pid = transport.pid;
  return {
    label: 'gateway process: SDK client → stdio → `milpa-gateway` → stdio → upstream',
    call: async () => {
      const result = await client.callTool({ name: 'up_echo', arguments: { ...ARGS } });
      if (result.isError === true) throw new Error(`gateway call failed: ${textOf(result)}`);
      return textOf(result);
    },
    childCpuMicros: () => (pid === null ? null : processCpuMicros(pid)),
    close: () => client.close(),
  };
}

/** One path's figures in one round. */
interface Sample {
  /** Wall-clock microseconds per call. */
  readonly wallMicros: number;
  /**
   * CPU microseconds per call of the caller's process plus, for the gateway process path, the
   * gateway's (upstreams excluded); null when unknown.
   */
  readonly cpuMicros: number | null;
}

/** Wall and CPU time per call over `calls` sequential calls. */
async function measure(path: BenchPath, calls: number): Promise<Sample> {
  const childBefore = path.childCpuMicros?.() ?? 0;
  const cpuBefore = ownCpuMicros();
  const started = performance.now();
  for (let index = 0; index < calls; index++) {
    const text = await path.call();
    if (text !== ARGS.text) throw new Error(`${path.label}: unexpected answer ${JSON.stringify(text)}`);
  }
  const wallMicros = ((performance.now() - started) * 1000) / calls;
  const childAfter = path.childCpuMicros?.() ?? 0;
  const cpu = childAfter === null || childBefore === null ? null : (ownCpuMicros() - cpuBefore + (childAfter - childBefore)) / calls;
  return { wallMicros, cpuMicros: cpu };
}

async function main(): Promise<void> {
  const rounds = setting('BENCH_GATEWAY_ROUNDS', 9);
  const calls = setting('BENCH_GATEWAY_CALLS', 400);
  const warmup = setting('BENCH_GATEWAY_WARMUP', 300);
  const paths = [await directPath(), await inProcessPath(), await processPath()];
  try {
    for (const path of paths) {
      progress(`warming up: ${path.label}`);
      await measure(path, warmup);
    }
    const samples = paths.map(() => [] as Sample[]);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
      for (const index of order) samples[index]!.push(await measure(paths[index]!, calls));
      progress(`round ${round + 1}/${rounds}: ${samples.map((values) => values.at(-1)!.wallMicros.toFixed(0)).join(' / ')} µs per call`);
    }
    writeReport(paths, samples, { rounds, calls, warmup });
  } finally {
    await Promise.all(paths.map((path) => path.close().catch(() => undefined)));
  }
}

/** A signed difference in microseconds: `+84 µs`, `-12 µs`. */
function signedMicros(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(0)} µs`;
}

function cpuColumn(values: readonly Sample[], direct: readonly Sample[]): { perCall: string; overhead: string } {
  if (values.some((value) => value.cpuMicros === null)) return { perCall: 'n/a', overhead: 'n/a' };
  const perCall = median(values.map((value) => value.cpuMicros!));
  const overhead = median(values.map((value, round) => value.cpuMicros! - direct[round]!.cpuMicros!));
  return { perCall: perCall.toFixed(0), overhead: values === direct ? '' : signedMicros(overhead) };
}

function writeReport(
  paths: readonly BenchPath[],
  samples: readonly Sample[][],
  settings: { rounds: number; calls: number; warmup: number },
): void {
  const direct = samples[0]!;
  const rows = paths.map((path, index) => {
    const values = samples[index]!;
    const wall = values.map((value) => value.wallMicros);
    const perCall = median(wall);
    const overhead = index === 0 ? '' : signedMicros(median(wall.map((value, round) => value - direct[round]!.wallMicros)));
    const ratio = index === 0 ? '' : `${median(wall.map((value, round) => value / direct[round]!.wallMicros)).toFixed(2)}×`;
    const cpu = cpuColumn(values, direct);
    return (
      `| ${path.label} | ${perCall.toFixed(0)} | ${Math.round(1e6 / perCall).toLocaleString('en-US')} | ` +
      `${overhead} | ${ratio} | ${cpu.perCall} | ${cpu.overhead} |`
    );
  });
  const cpu = cpus();
  const load = loadavg()[0]?.toFixed(1) ?? '?';
  const environment =
    `${new Date().toISOString()}, ${cpu[0]?.model.trim() ?? 'unknown CPU'} × ${cpu.length} logical cores ` +
    `(1-minute load average ${load} at the end), Node ${process.version}`;
  const markdown = `# Gateway overhead: calls through @milpa/gateway against calls straight to the upstream

Run: \`${COMMAND}\` — ${environment}.

One upstream MCP server (\`bench-upstream.mjs\`, a child process on stdio with one read-only \`echo\`
tool) is called three ways, each path with its own upstream process: directly by the SDK client;
through the gateway in-process (\`gateway.registry.call\`: validation, authorization, rules, rate
limit, confirmation and approval checks, audit, then forwarding over the gateway's own stdio
connection); and through the \`milpa-gateway\` command as a separate process, which adds one more
stdio hop. Calls are sequential (one in flight per path): the wall figures are latency per call.
${settings.warmup} warm-up calls per path, then ${settings.rounds} rounds of ${settings.calls} calls per path, paths taking
turns (1 2 3, then 3 2 1, …). Medians over rounds; the overheads and the ratio are the medians of the
per-round differences and ratios to "direct".

CPU µs per call counts the caller's process (the SDK client, and the in-process gateway) plus, for
the gateway process, that process (from /proc, 10 ms ticks); the upstreams are left out, as they do
the same work on every path. On a machine shared with other work the wall figures move with the
load; the CPU figures much less.

| path | wall µs per call | calls/s | wall overhead | × direct | CPU µs per call | CPU overhead |
|---|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}
`;
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'gateway.md'), markdown);
  process.stdout.write(markdown);
}

await main();
