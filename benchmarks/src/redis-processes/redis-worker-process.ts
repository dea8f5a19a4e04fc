import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerReply, WorkerRequest } from './redis-worker-messages.js';

const WORKER_ENTRY = fileURLToPath(new URL('./redis-worker.ts', import.meta.url));

/**
 * One Redis worker in a child process of its own (`node --conditions=@milpa/source --import tsx`,
 * as `pnpm bench` runs the suite), driven over the IPC channel: one request at a time.
 */
export class RedisWorkerProcess {
  readonly #child: ChildProcess;
  readonly #inbox: WorkerReply[] = [];
  #waiter: ((message: WorkerReply) => void) | null = null;
  #exited: Error | null = null;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (message: WorkerReply) => this.#deliver(message));
    child.on('exit', (code, signal) => {
      this.#exited = new Error(`a Redis worker exited (code ${String(code)}, signal ${String(signal)})`);
      this.#deliver({ type: 'failed', message: this.#exited.message });
    });
  }

  /** Forks a worker on the keys under `prefix`, with `budget` as its small shared budget, and waits until it is connected. */
  static async start(prefix: string, budget: number): Promise<RedisWorkerProcess> {
    const child = fork(WORKER_ENTRY, [prefix, String(budget)], {
      execArgv: ['--conditions=@milpa/source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker = new RedisWorkerProcess(child);
    await worker.#next('ready');
    return worker;
  }

  /** Sends `request` and waits for the reply of type `expected`. */
  async request<Type extends WorkerReply['type']>(request: WorkerRequest, expected: Type): Promise<Extract<WorkerReply, { type: Type }>> {
    if (this.#exited !== null) throw this.#exited;
    this.#child.send(request);
    return this.#next(expected);
  }

  /** Asks the worker to close its stores and exit, and waits for it (killing it after 5 s). */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'close' } satisfies WorkerRequest);
    const timer = setTimeout(() => this.#child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }

  async #next<Type extends WorkerReply['type']>(expected: Type): Promise<Extract<WorkerReply, { type: Type }>> {
    const reply = this.#inbox.shift() ?? (await new Promise<WorkerReply>((resolve) => (this.#waiter = resolve)));
    if (reply.type === 'failed') throw new Error(`a Redis worker failed: ${reply.message}`);
    if (reply.type !== expected) throw new Error(`a Redis worker answered ${reply.type}, expected ${expected}`);
    return reply as Extract<WorkerReply, { type: Type }>;
  }

  #deliver(message: WorkerReply): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    if (waiter === null) this.#inbox.push(message);
    else waiter(message);
  }
}
