import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, HttpServerKind, ParentMessage, ServerWindow } from './http-bench-messages.js';

const SERVER_ENTRY = fileURLToPath(new URL('./http-bench-server.ts', import.meta.url));
const SNAPSHOT_REGISTER = new URL('./milpa-snapshot-register.mjs', import.meta.url).href;

/** Where a server process takes Milpa's packages from. */
export interface ServerProcessOptions {
  /** The root of a snapshot of Milpa's packages (`snapshotMilpaPackages`), or undefined for the working tree's. */
  readonly milpaRoot: string | undefined;
}

/**
 * One benchmark server in a child process of its own (`node --conditions=@milpa/source --import
 * tsx`, as `pnpm bench` runs the suite), driven over the IPC channel: one request at a time.
 */
export class HttpServerProcess {
  readonly kind: HttpServerKind;
  readonly url: string;
  readonly #child: ChildProcess;
  readonly #inbox: ChildMessage[] = [];
  #waiter: ((message: ChildMessage) => void) | null = null;

  private constructor(kind: HttpServerKind, child: ChildProcess, url: string, inbox: ChildMessage[]) {
    this.kind = kind;
    this.#child = child;
    this.url = url;
    this.#inbox = inbox;
    child.on('message', (message: ChildMessage) => this.#deliver(message));
  }

  /** Forks the server and waits until it listens. */
  static async start(kind: HttpServerKind, options: ServerProcessOptions): Promise<HttpServerProcess> {
    const child = fork(SERVER_ENTRY, [kind], {
      execArgv: [
        '--conditions=@milpa/source',
        '--import',
        'tsx',
        ...(options.milpaRoot === undefined ? [] : ['--import', SNAPSHOT_REGISTER]),
      ],
      env: { ...process.env, BENCH_HTTP_MILPA_ROOT: options.milpaRoot ?? '' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<ChildMessage>((resolve, reject) => {
      child.once('message', (message: ChildMessage) => resolve(message));
      child.once('exit', (code) => reject(new Error(`the ${kind} server exited with code ${String(code)} before it was ready`)));
    });
    if (ready.type !== 'ready') {
      child.kill();
      throw new Error(`the ${kind} server failed to start: ${ready.type === 'failed' ? ready.message : ready.type}`);
    }
    return new HttpServerProcess(kind, child, ready.url, []);
  }

  /** Starts a measured window (optionally under the CPU profiler, written to `profileFile` at `stop`). */
  async start(profileFile?: string): Promise<void> {
    await this.#request(profileFile === undefined ? { type: 'start' } : { type: 'start', profileFile }, 'started');
  }

  /** Ends the measured window and returns the server's CPU, loop utilization and log lines over it. */
  async stop(): Promise<ServerWindow> {
    const message = await this.#request({ type: 'stop' }, 'window');
    if (message.type !== 'window') throw new Error('unreachable');
    return message.window;
  }

  /** Closes the server and waits for its process to exit. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'close' } satisfies ParentMessage);
    const timer = setTimeout(() => this.#child.kill(), 5000);
    await exited;
    clearTimeout(timer);
  }

  async #request(message: ParentMessage, expected: ChildMessage['type']): Promise<ChildMessage> {
    this.#child.send(message);
    const answer = this.#inbox.shift() ?? (await new Promise<ChildMessage>((resolve) => (this.#waiter = resolve)));
    if (answer.type === 'failed') throw new Error(`the ${this.kind} server failed: ${answer.message}`);
    if (answer.type !== expected) throw new Error(`the ${this.kind} server answered ${answer.type}, expected ${expected}`);
    return answer;
  }

  #deliver(message: ChildMessage): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    if (waiter === null) this.#inbox.push(message);
    else waiter(message);
  }
}
