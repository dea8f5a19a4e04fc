import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { RedisStores } from '../src/index.js';
import { describeWithRedis, REDIS_URL, useTestRedis } from './redis-server.js';

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
// Inside the package's node_modules, so the bundle resolves `redis` as the package does.
const WORKER = join(PACKAGE_DIR, 'node_modules', '.cache', 'milpa-store-redis-test', 'store-worker.mjs');

const redis = useTestRedis('cross-process');
let scenario = 0;

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
    external: ['redis'],
    logLevel: 'silent',
  });
});

/** A worker process: `send` a command and get its one-line JSON answer. */
interface Worker {
  readonly process: ChildProcess;
  readonly ready: Promise<void>;
  send(command: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const running: Worker[] = [];
afterEach(async () => {
  for (const worker of running.splice(0)) {
    const exited = new Promise((resolve) => worker.process.once('exit', resolve));
    if (worker.process.exitCode === null) await worker.send({ op: 'exit' }).catch(() => undefined);
    worker.process.stdin?.end();
    if (worker.process.exitCode === null) await exited;
  }
});

/** Starts a worker on the scenario's prefix; it connects its own stores, then waits for commands. */
function startWorker(prefix: string): Worker {
  const child = spawn(process.execPath, [WORKER, JSON.stringify({ url: REDIS_URL, prefix })], { stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map<number, { resolve: (reply: Record<string, unknown>) => void; reject: (error: Error) => void }>();
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
    const reply = JSON.parse(line) as Record<string, unknown> & { id: number };
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (typeof reply['error'] === 'string') waiting?.reject(new Error(`the worker failed: ${reply['error']}`));
    else waiting?.resolve(reply);
  });
  child.on('exit', (code) => {
    const failure = new Error(`the worker exited with ${String(code)}: ${errors}`);
    failReady(failure);
    for (const waiting of pending.values()) waiting.reject(failure);
    pending.clear();
  });
  const worker: Worker = {
    process: child,
    ready,
    send: (command) =>
      new Promise((resolve, reject) => {
        next += 1;
        pending.set(next, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ id: next, ...command })}\n`);
      }),
  };
  running.push(worker);
  return worker;
}

/** Two workers on a prefix of this scenario's own, both connected. */
async function startPair(): Promise<{ readonly prefix: string; readonly a: Worker; readonly b: Worker }> {
  scenario += 1;
  const prefix = `${redis.prefix}${String(scenario)}:`;
  const a = startWorker(prefix);
  const b = startWorker(prefix);
  await Promise.all([a.ready, b.ready]);
  return { prefix, a, b };
}

/** How many times the workers ran `tool`, as their INCR counter in Redis says. */
async function runsOf(prefix: string, tool: string): Promise<number> {
  return Number((await redis.client.get(`${prefix}runs:${tool}`)) ?? 0);
}

describeWithRedis('RedisStores across processes', () => {
  it('redeems a token minted in one process exactly once when two processes race 200 redemptions of it', async () => {
    const { a, b } = await startPair();
    const { token } = (await a.send({ op: 'mint' })) as { token: string };
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    const [first, second] = (await Promise.all([
      a.send({ op: 'redeem', token, times: 100 }),
      b.send({ op: 'redeem', token, times: 100 }),
    ])) as { redeemed: number }[];
    expect((first?.redeemed ?? 0) + (second?.redeemed ?? 0)).toBe(1);
  });

  it('runs a handler exactly 100 times when two processes make 500 calls through registries sharing a budget of 100', async () => {
    const { prefix, a, b } = await startPair();
    const answers = (await Promise.all([a.send({ op: 'spend', times: 250 }), b.send({ op: 'spend', times: 250 })])) as {
      succeeded: number;
      limited: number;
    }[];
    expect(answers.reduce((sum, answer) => sum + answer.succeeded, 0)).toBe(100);
    expect(answers.reduce((sum, answer) => sum + answer.limited, 0)).toBe(400);
    expect(await runsOf(prefix, 'search_notes')).toBe(100);
  });

  it(
    'runs a call held in one process once: granted through the verifier ' +
      'in the other, resumed in the first while the other resumes too',
    async () => {
      const { prefix, a, b } = await startPair();
      const held = (await a.send({ op: 'hold' })) as { code: string; approvalId: string };
      expect(held.code).toBe('APPROVAL_PENDING');
      expect(held.approvalId).toEqual(expect.any(String));
      const early = (await a.send({ op: 'resume', approvalId: held.approvalId })) as { succeeded: number; codes: string[] };
      expect(early).toMatchObject({ succeeded: 0, codes: ['APPROVAL_PENDING'] });
      expect(await b.send({ op: 'grant', approvalId: held.approvalId })).toMatchObject({ status: 'passed' });
      const [inA, inB] = (await Promise.all([
        a.send({ op: 'resume', approvalId: held.approvalId, times: 20 }),
        b.send({ op: 'resume', approvalId: held.approvalId, times: 20 }),
      ])) as {
        succeeded: number;
      }[];
      expect((inA?.succeeded ?? 0) + (inB?.succeeded ?? 0)).toBe(1);
      expect(await runsOf(prefix, 'delete_note')).toBe(1);
    },
  );

  it('runs exactly 3 of 40 deletions when two processes make 20 parallel calls each in one run under a limit of 3 per run', async () => {
    const { prefix, a, b } = await startPair();
    const stores = await RedisStores.connect({ client: redis.client, prefix });
    try {
      expect(await stores.history.startRun('run-limit')).toBe(true);
      const answers = (await Promise.all([
        a.send({ op: 'limited-deletions', runId: 'run-limit', times: 20 }),
        b.send({ op: 'limited-deletions', runId: 'run-limit', times: 20 }),
      ])) as { succeeded: number; refused: number }[];
      expect(answers.reduce((sum, answer) => sum + answer.succeeded, 0)).toBe(3);
      expect(answers.reduce((sum, answer) => sum + answer.refused, 0)).toBe(37);
      expect(await runsOf(prefix, 'purge_note')).toBe(3);
      const history = await stores.history.load('run-limit');
      expect(history).toMatchObject({ complete: true, length: 40, inFlight: [] });
      expect(history?.count({ outcome: 'executed' })).toBe(3);
    } finally {
      await stores.close();
    }
  });

  it('runs a call once when both processes make 20 calls each, at once, with one idempotency key', async () => {
    const { prefix, a, b } = await startPair();
    const answers = (await Promise.all([
      a.send({ op: 'idempotent-calls', key: 'invoice-order-7', times: 20 }),
      b.send({ op: 'idempotent-calls', key: 'invoice-order-7', times: 20 }),
    ])) as {
      data: unknown[];
    }[];
    expect(await runsOf(prefix, 'create_invoice')).toBe(1);
    const everyAnswer = answers.flatMap((answer) => answer.data.map((data) => JSON.stringify(data)));
    expect(everyAnswer).toHaveLength(40);
    // Calls that arrive while the first runs wait for it, so every one answers with the first result.
    expect(new Set(everyAnswer).size).toBe(1);
    expect(JSON.parse(everyAnswer[0] ?? 'null')).toMatchObject({ amount: 9, invoice: expect.stringMatching(/^made by \d+$/) });
  });
});
