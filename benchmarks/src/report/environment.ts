import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Where and with what the suite ran. */
export interface Environment {
  /** CPU model and logical core count. */
  readonly machine: string;
  /** OS and kernel. */
  readonly os: string;
  /** Total memory. */
  readonly memory: string;
  /** `process.version`. */
  readonly node: string;
  /** ISO date and time of the run. */
  readonly date: string;
  /** The repository commit measured (with `+dirty` when the tree had changes). */
  readonly commit: string;
  /** Package name → version, for Milpa's packages and every peer. */
  readonly packages: Readonly<Record<string, string>>;
  /** The 1-minute load average when the run started and when it ended (`os.loadavg()`); the end is filled in by the suite. */
  readonly loadAverage: { readonly start: number; readonly end: number | null };
  /** Nanoseconds of CPU time per `performance.now()` and per `Date.now()` on this machine. */
  readonly clockReadNs: { readonly performanceNow: number; readonly dateNow: number };
}

const BENCHMARKS_ROOT = new URL('../../', import.meta.url);

const PEER_PACKAGES = [
  '@modelcontextprotocol/sdk',
  '@langchain/core',
  '@openai/agents',
  'ai',
  'zod',
  'ajv',
  'pino',
  'tsx',
  'redis',
] as const;
const MILPA_PACKAGES = [
  'core',
  'events',
  'tool-runtime',
  'mcp',
  'store-sqlite',
  'store-redis',
  'ai-sdk',
  'openai-agents',
  'langchain',
] as const;

/** `1.2.3`, with ` (node >=18)` when the package declares the Node versions it supports. */
function versionAt(url: URL): string {
  try {
    const manifest = JSON.parse(readFileSync(url, 'utf8')) as { version?: unknown; engines?: { node?: unknown } };
    const version = typeof manifest.version === 'string' ? manifest.version : 'unknown';
    const node = manifest.engines?.node;
    return typeof node === 'string' ? `${version} (node ${node})` : version;
  } catch {
    return 'unknown';
  }
}

function gitCommit(): string {
  try {
    const cwd = new URL('../', BENCHMARKS_ROOT);
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--', 'packages', 'benchmarks'], { cwd, encoding: 'utf8' });
    return status.trim() === '' ? hash : `${hash}+dirty`;
  } catch {
    return 'unknown';
  }
}

/** CPU nanoseconds per call of `read`, over enough calls to dwarf the timer's own cost. */
function nanosecondsPerRead(read: () => number): number {
  const calls = 500_000;
  let sink = 0;
  for (let index = 0; index < 50_000; index++) sink += read();
  const startedAt = process.cpuUsage();
  for (let index = 0; index < calls; index++) sink += read();
  const used = process.cpuUsage(startedAt);
  if (Number.isNaN(sink)) throw new Error('clock returned NaN');
  return ((used.user + used.system) * 1000) / calls;
}

/** Describes the machine, the runtime and the measured package versions. */
export function describeEnvironment(): Environment {
  const cpus = os.cpus();
  const packages: Record<string, string> = {};
  for (const name of MILPA_PACKAGES) {
    packages[`@milpa/${name}`] = versionAt(new URL(`../packages/${name}/package.json`, BENCHMARKS_ROOT));
  }
  for (const name of PEER_PACKAGES) packages[name] = versionAt(new URL(`node_modules/${name}/package.json`, BENCHMARKS_ROOT));
  // The SQLite store's engine is its own dependency, not the benchmarks'.
  packages['better-sqlite3'] = versionAt(new URL('../packages/store-sqlite/node_modules/better-sqlite3/package.json', BENCHMARKS_ROOT));
  return {
    machine: `${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length} logical cores`,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    date: new Date().toISOString(),
    commit: gitCommit(),
    packages,
    loadAverage: { start: os.loadavg()[0] ?? 0, end: null },
    // Clock reads are syscalls on some VMs; a Milpa call reads the clock three times, row 2 once.
    clockReadNs: { performanceNow: nanosecondsPerRead(() => performance.now()), dateNow: nanosecondsPerRead(() => Date.now()) },
  };
}

/** `environment` with the load average at the end of the run. */
export function withEndLoadAverage(environment: Environment): Environment {
  return { ...environment, loadAverage: { ...environment.loadAverage, end: os.loadavg()[0] ?? 0 } };
}

/** The load averages as text: `13.4 at the start, 15.6 at the end, on 2 logical cores`. */
export function describeLoadAverage(environment: Environment): string {
  const end = environment.loadAverage.end === null ? '' : `, ${environment.loadAverage.end.toFixed(1)} at the end`;
  return `${environment.loadAverage.start.toFixed(1)} at the start${end}, on ${os.cpus().length} logical cores`;
}
