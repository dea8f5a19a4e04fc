import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ToolContext, Type, VerificationRequest, VerificationResult, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { HumanVerifier, verifierApprovalGate } from '@milpa/verification';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStores } from '../src/index.js';
import { temporaryDirectory } from './temporary-database.js';

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
// Inside the package's node_modules, so the bundle resolves better-sqlite3 as the package does.
const WORKER = join(PACKAGE_DIR, 'node_modules', '.cache', 'milpa-store-sqlite-test', 'store-worker.mjs');
const BINDING = { principal: 'user:alice', channel: 'web' };

const files = temporaryDirectory();

beforeAll(async () => {
  mkdirSync(dirname(WORKER), { recursive: true });
  await build({
    entryPoints: [join(PACKAGE_DIR, 'test', 'fixtures', 'store-worker.ts')],
    outfile: WORKER,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@milpa/source'],
    external: ['better-sqlite3'],
    logLevel: 'silent',
  });
});
afterAll(() => files.remove());

interface Worker {
  readonly ready: Promise<void>;
  readonly answer: Promise<unknown>;
  /** Resolves with the first line the job printed, while the process may still run. */
  readonly firstLine: Promise<unknown>;
  readonly process: ChildProcess;
  go(): void;
}

/** Starts the worker on `job`; it opens the stores, then waits for `go()` to do its job. */
function startWorker(job: Record<string, unknown>): Worker {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  let markReady: () => void = () => undefined;
  let markLine: (line: unknown) => void = () => undefined;
  const firstLine = new Promise<unknown>((resolve) => {
    markLine = resolve;
  });
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (output.startsWith('ready\n')) markReady();
    const line = output.split('\n')[1];
    if (line !== undefined && output.split('\n').length > 2) markLine(JSON.parse(line));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  const answer = new Promise<unknown>((resolve, reject) => {
    child.on('error', reject);
    // The worker never closes its stores: exiting on its own shows the sweep timer is unreferenced.
    child.on('exit', (code) => {
      const line = output.split('\n')[1];
      if (code === 0 && line !== undefined && line !== '') resolve(JSON.parse(line));
      else reject(new Error(`the worker exited with ${String(code)}: ${errors}${output}`));
    });
  });
  return { ready, answer, firstLine, process: child, go: () => child.stdin.end('go\n') };
}

async function runTogether(jobs: Record<string, unknown>[]): Promise<unknown[]> {
  const workers = jobs.map(startWorker);
  await Promise.race([Promise.all(workers.map((worker) => worker.ready)), Promise.all(workers.map((worker) => worker.answer))]);
  for (const worker of workers) worker.go();
  return Promise.all(workers.map((worker) => worker.answer));
}

describe('SqliteStores across processes', () => {
  it('shows a second process what the first wrote, and the first what the second wrote', async () => {
    const path = files.path('shared.db');
    const stores = SqliteStores.open(path);
    const { token } = stores.confirmation.create('delete_note', { id: 42 }, 'delete_note(id=42)', BINDING);
    stores.rateLimiter.consume('web:alice:search', 3, 600, 100);
    const now = Date.now();
    stores.verification.open({
      id: 'verification-1',
      request: new VerificationRequest('gate:report.publish', 'dual', {}, 'user:requester', 'verification-1'),
      createdAt: new Date(now),
      expiresAt: new Date(now + 600_000),
      requiredApprovals: 2,
      approvals: [],
      result: null,
      resolvedAt: null,
    });
    stores.verification.decide('verification-1', {
      kind: 'grant',
      principal: 'user:approver-a',
      reason: null,
      at: new Date(now),
      subject: null,
      result: VerificationResult.pass('human', 'user:approver-a'),
    });
    stores.history.startRun('run-1');
    stores.history.append('run-1', { tool: 'search_notes', outcome: 'executed', target: null });

    const [seen] = await runTogether([{ path, job: 'read', token, verificationId: 'verification-1', runId: 'run-1' }]);
    expect(seen).toEqual({
      tokenValid: true,
      usage: 3,
      verification: { approvals: ['user:approver-a'], status: null },
      history: ['search_notes'],
    });

    const [written] = (await runTogether([{ path, job: 'write', verificationId: 'verification-1', runId: 'run-1' }])) as [
      { decided: string; token: string },
    ];
    expect(written.decided).toBe('resolved');
    expect(stores.verification.get('verification-1')?.result?.status).toBe('passed');
    expect(stores.verification.get('verification-1')?.approvals.map((approval) => approval.principal)).toEqual([
      'user:approver-a',
      'user:approver-b',
    ]);
    expect(stores.history.load('run-1')?.observations.map((observation) => observation.tool)).toEqual(['search_notes', 'archive_note']);
    expect(stores.history.load('run-1')?.complete).toBe(true);
    expect(stores.confirmation.consume(written.token, 'delete_note', BINDING)).toEqual({ id: 7 });
    stores.close();
  });

  it('redeems each of 200 tokens exactly once when two processes race to redeem all of them', async () => {
    const path = files.path('race-tokens.db');
    const stores = SqliteStores.open(path);
    const tokens = Array.from(
      { length: 200 },
      (_, index) => stores.confirmation.create('delete_note', { id: index }, `delete_note(id=${String(index)})`, BINDING).token,
    );
    const [first, second] = (await runTogether([
      { path, job: 'consume', tokens },
      { path, job: 'consume', tokens },
    ])) as [string[], string[]];
    expect(first.length + second.length).toBe(200);
    expect(new Set([...first, ...second]).size).toBe(200);
    expect(tokens.filter((token) => stores.confirmation.isValid(token, 'delete_note', BINDING))).toEqual([]);
    stores.close();
  });

  it('grants exactly a budget of 100 when two processes make 150 calls each on one key', async () => {
    const path = files.path('race-budget.db');
    SqliteStores.open(path).close();
    const granted = (await runTogether([
      { path, job: 'spend', calls: 150 },
      { path, job: 'spend', calls: 150 },
    ])) as [number, number];
    expect(granted[0] + granted[1]).toBe(100);
    const stores = SqliteStores.open(path);
    expect(stores.rateLimiter.getUsage('web:alice:search')).toBe(100);
    stores.close();
  });

  it('runs exactly 3 of 40 deletions when two processes make 20 parallel calls each in one run under a limit of 3 per run', async () => {
    const path = files.path('run-limit.db');
    const opened = SqliteStores.open(path);
    expect(opened.history.startRun('run-limit')).toBe(true);
    opened.close();
    const answers = (await runTogether([
      { path, job: 'limited-deletions', runId: 'run-limit', calls: 20 },
      { path, job: 'limited-deletions', runId: 'run-limit', calls: 20 },
    ])) as { runs: number; refused: number }[];
    expect(answers.reduce((sum, answer) => sum + answer.runs, 0)).toBe(3);
    expect(answers.reduce((sum, answer) => sum + answer.refused, 0)).toBe(37);
    const stores = SqliteStores.open(path);
    const history = stores.history.load('run-limit');
    expect(history).toMatchObject({ complete: true, length: 40, inFlight: [] });
    expect(history?.count({ outcome: 'executed' })).toBe(3);
    stores.close();
  });

  it('runs a call once when two processes make 20 calls each with one idempotency key', async () => {
    const path = files.path('idempotency.db');
    SqliteStores.open(path).close();
    const answers = (await runTogether([
      { path, job: 'idempotent-calls', key: 'invoice-order-7' },
      { path, job: 'idempotent-calls', key: 'invoice-order-7' },
    ])) as { runs: number; data: unknown[] }[];
    expect(answers.reduce((sum, answer) => sum + answer.runs, 0)).toBe(1);
    const everyResult = answers.flatMap((answer) => answer.data.map((data) => JSON.stringify(data)));
    expect(everyResult).toHaveLength(40);
    expect(new Set(everyResult).size).toBe(1);
  });

  it('keeps a call held for approval when its process is killed: a new process grants it and the call runs once', async () => {
    const path = files.path('killed-held-call.db');
    const worker = startWorker({ path, job: 'hold-call' });
    const exited = worker.answer.catch(() => 'killed');
    await worker.ready;
    worker.go();
    const { code, approvalId } = (await worker.firstLine) as { code: string; approvalId: string };
    expect(code).toBe('APPROVAL_PENDING');
    worker.process.kill('SIGKILL');
    expect(await exited).toBe('killed');

    // A new process with the same wiring over the same file.
    const stores = SqliteStores.open(path, { sweepIntervalMs: 0 });
    const verifier = new HumanVerifier({ store: stores.verification });
    const registry = new ToolRegistry({ approvalGate: verifierApprovalGate(verifier), approvalStore: stores.approval });
    const deleted: number[] = [];
    registry.register(
      defineTool({
        name: 'delete_note',
        description: 'Delete a note',
        input: Type.Object({ id: Type.Integer() }),
        mutating: true,
        handler: ({ id }: { id: number }) => {
          deleted.push(id);
          return { deleted: id };
        },
      }),
    );
    const agent = ToolContext.mcp('req-resume', 'agent:7', []);
    expect(stores.approval.get(approvalId)).toMatchObject({
      toolName: 'delete_note',
      arguments: { id: 11 },
      principal: 'agent:7',
      redeemedAt: null,
    });
    expect((await registry.resume(approvalId, agent)).getCode()).toBe('APPROVAL_PENDING');
    await verifier.grant(VerificationRequest.forResolution(approvalId), 'user:approver');
    const results = await Promise.all(Array.from({ length: 20 }, () => registry.resume(approvalId, agent)));
    expect(results.filter((result) => result.success)).toHaveLength(1);
    expect(deleted).toEqual([11]);
    expect(stores.approval.get(approvalId)?.redeemedAt).toBeInstanceOf(Date);
    stores.close();
  });

  it('loses nothing written before a process is killed with SIGKILL', async () => {
    const path = files.path('killed.db');
    const worker = startWorker({ path, job: 'hold', verificationId: 'verification-held' });
    const exited = worker.answer.catch(() => 'killed');
    await worker.ready;
    worker.go();
    const { token } = (await worker.firstLine) as { token: string };
    worker.process.kill('SIGKILL');
    expect(await exited).toBe('killed');

    const stores = SqliteStores.open(path);
    const held = stores.verification.get('verification-held');
    expect(held?.result).toBeNull();
    expect(held?.request.payload).toEqual({ amount: 120 });
    const granted = stores.verification.decide('verification-held', {
      kind: 'grant',
      principal: 'user:approver',
      reason: null,
      at: new Date(),
      subject: null,
      result: VerificationResult.pass('human', 'user:approver'),
    });
    expect(granted.status).toBe('resolved');
    expect(stores.confirmation.consume(token, 'delete_note', BINDING)).toEqual({ id: 9 });
    expect(stores.confirmation.consume(token, 'delete_note', BINDING)).toBeNull();
    stores.close();
  });
});
