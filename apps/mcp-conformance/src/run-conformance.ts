// Runs the official MCP conformance suite against the fixture tools served by @milpa/mcp:
//   pnpm conformance        (add --verbose to see the CLI's own output)
// Starts the server on a free loopback port, runs every server scenario of the installed
// @modelcontextprotocol/conformance CLI, prints pass/fail per scenario with totals and the expected
// failures with their reasons, and exits non-zero when a scenario fails that is not expected to.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { serveHttp } from '@milpa/mcp';
import { CONFORMANCE_SERVER_OPTIONS } from './conformance-server-options.js';
import { EXPECTED_FAILURES, REQUIRED_SCENARIOS } from './conformance-plan.js';
import { createConformanceRegistry } from './create-conformance-registry.js';
import { evaluateConformance } from './evaluate-conformance.js';
import { formatConformanceReport } from './format-conformance-report.js';
import { readScenarioResults } from './read-scenario-results.js';

const CLI_TIMEOUT_MS = 5 * 60 * 1000;
const verbose = process.argv.includes('--verbose');

const packageJsonPath = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
const suite = JSON.parse(await readFile(packageJsonPath, 'utf8')) as { version: string; bin: Record<string, string> };
const cli = join(dirname(packageJsonPath), suite.bin['conformance'] ?? 'dist/index.js');

function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (verbose) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (verbose) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), CLI_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

const listed = await runCli(['list', '--server']);
const scenarios = [...listed.stdout.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((match) => match[1] as string);
if (scenarios.length === 0) {
  process.stderr.write(`Could not list the suite's server scenarios:\n${listed.stdout}\n`);
  process.exit(1);
}

const server = await serveHttp(createConformanceRegistry(), { ...CONFORMANCE_SERVER_OPTIONS, port: 0 });
const outputDir = await mkdtemp(join(tmpdir(), 'milpa-conformance-'));
let exitCode: number;
try {
  process.stdout.write(`Running ${scenarios.length} server scenarios against ${server.url} ...\n\n`);
  await runCli(['server', '--url', server.url, '--suite', 'all', '--output-dir', outputDir]);
  const results = await readScenarioResults(outputDir, scenarios);
  const evaluation = evaluateConformance(scenarios, results, { required: REQUIRED_SCENARIOS, expectedFailures: EXPECTED_FAILURES });
  process.stdout.write(`${formatConformanceReport(evaluation, suite.version)}\n`);
  exitCode = evaluation.exitCode;
} finally {
  await server.close();
  await rm(outputDir, { recursive: true, force: true });
}
process.exit(exitCode);
