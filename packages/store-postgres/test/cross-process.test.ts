import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ToolContext, Type, VerificationRequest, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { HumanVerifier, verifierApprovalGate } from '@milpa/verification';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PostgresStores } from '../src/index.js';
import { describeWithPostgres, POSTGRES_URL, useTestDatabase } from './postgres-server.js';

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
// Inside the package's node_modules, so the bundle resolves `pg` as the package does.
const WORKER = join(PACKAGE_DIR, 'node_modules', '.cache', 'milpa-store-postgres-test', 'store-worker.mjs');

const database = useTestDatabase('cross_process');

/** A worker process: `send` a command and get its one-line JSON answer. */
interface Worker {
  readonly process: ChildProcess;
  readonly ready: Promise<void>;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string | null>;
  send(command: Record<string, unknown>): Promise<Reply>;
}

/** A worker's answer; `runs` counts, per tool, the handler runs of that process so far. */
type Reply = Record<string, unknown> & { readonly runs: Record<string, number> };

/** Starts a worker on the file's schema; it connects its own stores, then waits for commands. */
function startWorker(): Worker {
  const setup = JSON.stringify({ url: POSTGRES_URL, schema: database.schema });
  const child = spawn(process.execPath, [WORKER, setup], { stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  let errors = '';
  let next = 0;
  let markReady: () => void = () => undefined;
  let failReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') return markReady();
    const reply = JSON.parse(line) as Reply & { id: number };
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (typeof reply['error'] === 'string') waiting?.reject(new Error(`the worker failed: ${reply['error']}`));
    else waiting?.resolve(reply);
  });
  const exited = new Promise<number | string | null>((resolve) => {
    child.on('exit', (code, signal) => {
      const failure = new Error(`the worker exited with ${String(code ?? signal)}: ${errors}`);
      failReady(failure);
      for (const waiting of pending.values()) waiting.reject(failure);
      pending.clear();
      resolve(code ?? signal);
    });
  });
  return {
    process: child,
    ready,
    exited,
    send: (command) =>
      new Promise((resolve, reject) => {
        next += 1;
        pending.set(next, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ id: next, ...command })}\n`);
      }),
  };
}

/** How many times the two answers' processes ran `tool`, together. */
function runsOf(replies: readonly Reply[], tool: string): number {
  return replies.reduce((sum, reply) => sum + (reply.runs[tool] ?? 0), 0);
}

let a: Worker;
let b: Worker;

describeWithPostgres('PostgresStores across processes', () => {
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
      external: ['pg'],
      logLevel: 'silent',
    });
    // Both connect to a schema nobody created yet: they migrate it at once, and once.
    a = startWorker();
    b = startWorker();
    await Promise.all([a.ready, b.ready]);
  });

  afterAll(async () => {
    for (const worker of [a, b]) {
      if (worker?.process.exitCode !== null || worker.process.signalCode !== null) continue;
      await worker.send({ op: 'exit' }).catch(() => undefined);
      worker.process.stdin?.end();
    }
    // Each worker exits on its own once its stores are closed: the sweep timer keeps no process alive.
    expect(await Promise.all([a?.exited, b?.exited])).toEqual([0, 0]);
  });

  it('migrates a fresh schema once when two processes connect to it at the same moment', async () => {
    const { rows } = await database.pool.query(`SELECT version FROM "${database.schema}".schema_version`);
    expect(rows).toEqual([{ version: 1 }]);
  });

  it('redeems a token minted in one process exactly once when two processes race 200 redemptions of it', async () => {
    const { token } = (await a.send({ op: 'mint' })) as Reply & { token: string };
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    const answers = await Promise.all([a.send({ op: 'redeem', token, times: 100 }), b.send({ op: 'redeem', token, times: 100 })]);
    expect(answers.reduce((sum, answer) => sum + Number(answer['redeemed']), 0)).toBe(1);
  });

  it('runs a handler exactly 100 times when two processes make 500 calls through registries sharing a budget of 100', async () => {
    const answers = await Promise.all([a.send({ op: 'spend', times: 250 }), b.send({ op: 'spend', times: 250 })]);
    expect(answers.flatMap((answer) => answer['others'] as unknown[])).toEqual([]);
    expect(answers.reduce((sum, answer) => sum + Number(answer['succeeded']), 0)).toBe(100);
    expect(answers.reduce((sum, answer) => sum + Number(answer['limited']), 0)).toBe(400);
    expect(runsOf(answers, 'search_notes')).toBe(100);
  });

  it('runs a call held in one process once: granted in the other, resumed in both at once', async () => {
    const held = (await a.send({ op: 'hold' })) as Reply & { code: string; approvalId: string };
    expect(held.code).toBe('APPROVAL_PENDING');
    expect(held.approvalId).toEqual(expect.any(String));
    expect(await a.send({ op: 'resume', approvalId: held.approvalId })).toMatchObject({ succeeded: 0, codes: ['APPROVAL_PENDING'] });
    expect(await b.send({ op: 'grant', approvalId: held.approvalId })).toMatchObject({ status: 'passed' });
    const answers = await Promise.all([
      a.send({ op: 'resume', approvalId: held.approvalId, times: 20 }),
      b.send({ op: 'resume', approvalId: held.approvalId, times: 20 }),
    ]);
    expect(answers.reduce((sum, answer) => sum + Number(answer['succeeded']), 0)).toBe(1);
    expect(runsOf(answers, 'delete_note')).toBe(1);
  });

  it('runs exactly 3 of 40 deletions when two processes make 20 parallel calls each in one run under a limit of 3 per run', async () => {
    const stores = await PostgresStores.connect({ pool: database.pool, schema: database.schema, sweepIntervalMs: 0 });
    try {
      expect(await stores.history.startRun('run-limit')).toBe(true);
      const answers = await Promise.all([
        a.send({ op: 'limited-deletions', runId: 'run-limit', times: 20 }),
        b.send({ op: 'limited-deletions', runId: 'run-limit', times: 20 }),
      ]);
      expect(answers.reduce((sum, answer) => sum + Number(answer['succeeded']), 0)).toBe(3);
      expect(answers.reduce((sum, answer) => sum + Number(answer['refused']), 0)).toBe(37);
      expect(runsOf(answers, 'purge_note')).toBe(3);
      const history = await stores.history.load('run-limit');
      expect(history).toMatchObject({ complete: true, length: 40, inFlight: [] });
      expect(history?.count({ outcome: 'executed' })).toBe(3);
    } finally {
      await stores.close();
    }
  });

  it('runs a call once when both processes make 20 calls each, at once, with one idempotency key', async () => {
    const answers = await Promise.all([
      a.send({ op: 'idempotent-calls', key: 'invoice-order-7', times: 20 }),
      b.send({ op: 'idempotent-calls', key: 'invoice-order-7', times: 20 }),
    ]);
    expect(runsOf(answers, 'create_invoice')).toBe(1);
    const everyAnswer = answers.flatMap((answer) => (answer['data'] as unknown[]).map((data) => JSON.stringify(data)));
    expect(everyAnswer).toHaveLength(40);
    // Calls that arrive while the first runs wait for it, so every one answers with the first result.
    expect(new Set(everyAnswer).size).toBe(1);
    expect(JSON.parse(everyAnswer[0] ?? 'null')).toMatchObject({ amount: 9, invoice: expect.stringMatching(/^made by \d+$/) });
  });

  it('keeps a call held for approval when its process is killed with SIGKILL: another process grants it and it runs once', async () => {
    const doomed = startWorker();
    await doomed.ready;
    const held = (await doomed.send({ op: 'hold' })) as Reply & { code: string; approvalId: string };
    expect(held.code).toBe('APPROVAL_PENDING');
    doomed.process.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');

    // A process with the same wiring over the same database: the test's own.
    const stores = await PostgresStores.connect({ pool: database.pool, schema: database.schema, sweepIntervalMs: 0 });
    try {
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
      expect(await stores.approval.get(held.approvalId)).toMatchObject({
        toolName: 'delete_note',
        arguments: { id: 11 },
        principal: 'agent:7',
        redeemedAt: null,
      });
      expect((await registry.resume(held.approvalId, agent)).getCode()).toBe('APPROVAL_PENDING');
      await verifier.grant(VerificationRequest.forResolution(held.approvalId), 'user:approver');
      const results = await Promise.all(Array.from({ length: 20 }, () => registry.resume(held.approvalId, agent)));
      expect(results.filter((result) => result.success)).toHaveLength(1);
      expect(deleted).toEqual([11]);
      expect(await stores.approval.get(held.approvalId)).toMatchObject({
        redeemedAt: expect.any(Date),
        settlement: { outcome: 'succeeded', code: null },
      });
    } finally {
      await stores.close();
    }
  });
});
