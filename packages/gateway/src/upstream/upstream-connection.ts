import { silentLogger, type LogContext, type Logger } from '@milpa/core';
import { messageOf } from '@milpa/core/kit';
import { Redactor } from '@milpa/tool-runtime/audit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { isStdioUpstream, type UpstreamConfig } from '../config/gateway-config.js';
import { RestartBackoff, type RestartBackoffOptions } from './restart-backoff.js';
import { UpstreamUnavailableError } from './upstream-unavailable-error.js';

/** Where an upstream connection stands: connecting for the first time, connected, reconnecting after a failure, or closed for good. */
export type UpstreamState = 'starting' | 'ready' | 'restarting' | 'closed';

/** Settings of an {@link UpstreamConnection}. */
export interface UpstreamConnectionOptions {
  /** How long to wait between restart attempts. */
  readonly restart: RestartBackoffOptions;
  /** Where connection problems are logged. */
  readonly logger?: Logger;
  /** How the gateway introduces itself to the upstream. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Called with the full tool list whenever it is (re)read: after each connection and after `tools/list_changed`. */
  readonly onTools?: (tools: readonly Tool[]) => void;
  /** Called on every state change. */
  readonly onState?: (state: UpstreamState) => void;
  /**
   * Scrubs a failed call's error text of the call's secrets before it is logged (the registry's,
   * so names added there count too). Default: a redactor with the default sensitive names.
   */
  readonly redactor?: Redactor;
}

/** Options of one forwarded call. */
export interface UpstreamCallOptions {
  /** Aborting it cancels the call on the upstream (`notifications/cancelled`). */
  readonly signal?: AbortSignal;
  /** Receives the upstream's progress notifications for this call. */
  readonly onprogress?: (progress: Progress) => void;
  /** How long the upstream may take, in milliseconds; progress restarts the clock. */
  readonly timeoutMs?: number;
}

/**
 * One upstream MCP server, kept connected: a child process on stdio or a Streamable HTTP
 * endpoint, through the official SDK `Client`. It reads the tool list on every connection and on
 * `notifications/tools/list_changed`, forwards calls with the caller's signal and progress, and
 * when the connection is lost (the child exits, the endpoint stops answering) reconnects with
 * exponential backoff; meanwhile calls fail at once with {@link UpstreamUnavailableError}.
 *
 * @example
 * const upstream = new UpstreamConnection(
 *   { name: 'files', command: 'node', args: ['server.js'] },
 *   { restart: { initialDelayMs: 500, maxDelayMs: 30_000 } },
 * );
 * await upstream.start();
 * const result = await upstream.callTool('read_file', { path: 'a.txt' }, { signal });
 */
export class UpstreamConnection {
  /** The upstream's configuration. */
  readonly config: UpstreamConfig;
  readonly #options: UpstreamConnectionOptions;
  readonly #logger: Logger;
  readonly #redactor: Redactor;
  readonly #backoff: RestartBackoff;
  #state: UpstreamState = 'starting';
  #client: Client | null = null;
  #transport: Transport | null = null;
  /** Bumped by every connection attempt, so events of an older connection are ignored. */
  #generation = 0;
  #tools: readonly Tool[] = [];
  #retryTimer: NodeJS.Timeout | null = null;
  #retryAt: number | null = null;
  #waiters: (() => void)[] = [];
  #refreshing: Promise<void> | null = null;
  #refreshAgain = false;

  constructor(config: UpstreamConfig, options: UpstreamConnectionOptions) {
    this.config = config;
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#redactor = options.redactor ?? new Redactor();
    this.#backoff = new RestartBackoff(options.restart);
  }

  /** The upstream's name. */
  get name(): string {
    return this.config.name;
  }

  /** Where the connection stands. */
  get state(): UpstreamState {
    return this.#state;
  }

  /** The tools the upstream offered when last asked (kept while it is down). */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  /** The child's process id, for a stdio upstream that is running; otherwise null. */
  get pid(): number | null {
    return this.#transport instanceof StdioClientTransport ? (this.#transport.pid ?? null) : null;
  }

  /** Milliseconds until the next connection attempt while restarting; otherwise null. */
  get retryAfterMs(): number | null {
    return this.#retryAt === null ? null : Math.max(0, this.#retryAt - Date.now());
  }

  /**
   * Makes the first connection attempt and resolves when it has succeeded or failed; a failed
   * attempt is retried in the background with backoff. Never rejects.
   */
  async start(): Promise<void> {
    await this.#connect();
  }

  /** Resolves the next time the upstream is connected (at once when it is); rejects when it is closed first. */
  whenReady(): Promise<void> {
    if (this.#state === 'ready') return Promise.resolve();
    if (this.#state === 'closed') return Promise.reject(new UpstreamUnavailableError(this.name, null));
    return new Promise((resolve, reject) => {
      this.#waiters.push(() => (this.#state === 'ready' ? resolve() : reject(new UpstreamUnavailableError(this.name, null))));
    });
  }

  /**
   * Calls a tool on the upstream. Rejects with {@link UpstreamUnavailableError} when not
   * connected (nothing is sent), with the SDK's `McpError` for protocol errors (a lost connection
   * is `ConnectionClosed`), and with the signal's reason when the caller aborts (the upstream is
   * told with `notifications/cancelled`). A transport failure also starts a reconnection.
   */
  async callTool(name: string, args: Readonly<Record<string, unknown>>, options: UpstreamCallOptions = {}): Promise<CallToolResult> {
    const client = this.#client;
    if (this.#state !== 'ready' || client === null)
      throw new UpstreamUnavailableError(this.name, this.#state === 'closed' ? null : (this.retryAfterMs ?? 0));
    const generation = this.#generation;
    try {
      return (await client.callTool({ name, arguments: { ...args } }, CallToolResultSchema, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onprogress === undefined ? {} : { onprogress: options.onprogress, resetTimeoutOnProgress: true }),
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      })) as CallToolResult;
    } catch (error) {
      // A protocol answer or the caller's abort says nothing about the connection; anything else
      // (fetch failed, a broken pipe) means the upstream may be gone: reconnect.
      if (!(error instanceof McpError) && options.signal?.aborted !== true && generation === this.#generation) {
        this.#lost(generation, `a call failed: ${this.#scrub(messageOf(error), name, args)}`);
      }
      throw error;
    }
  }

  /** Closes the connection for good (a stdio child is stopped); pending calls fail. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#setState('closed');
    this.#generation++;
    this.#clearRetry();
    const client = this.#client;
    this.#client = null;
    this.#transport = null;
    await client?.close().catch(() => undefined);
  }

  #createTransport(): Transport {
    const config = this.config;
    if (isStdioUpstream(config)) {
      return new StdioClientTransport({
        command: config.command,
        args: [...(config.args ?? [])],
        // The SDK adds a minimal safe set (PATH, HOME, …); the gateway's own environment is not passed on.
        ...(config.env === undefined ? {} : { env: { ...config.env } }),
        ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
        stderr: config.stderr ?? 'inherit',
      });
    }
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
      // The gateway reconnects itself (and re-reads the tools); a broken stream is not resumed.
      reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 },
    });
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    this.#clearRetry();
    const client = new Client(this.#options.clientInfo ?? { name: 'milpa-gateway', version: '0.0.0' }, { capabilities: {} });
    client.onclose = () => this.#lost(generation, 'the connection closed');
    client.onerror = (error) => {
      this.#log('debug', { upstream: this.name, error: messageOf(error) }, `[Gateway] upstream ${this.name}: ${messageOf(error)}`);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (generation === this.#generation) void this.#refreshTools(client, generation);
    });
    const transport = this.#createTransport();
    try {
      await client.connect(transport);
      if (generation !== this.#generation) {
        await client.close().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#transport = transport;
      await this.#readTools(client, generation);
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#log(
        'warn',
        { upstream: this.name, error: messageOf(error) },
        `[Gateway] upstream ${this.name} could not be reached: ${messageOf(error)}`,
      );
      this.#client = null;
      this.#transport = null;
      await client.close().catch(() => undefined);
      this.#scheduleRetry();
      return;
    }
    if (generation !== this.#generation) return;
    this.#backoff.reset();
    this.#setState('ready');
    this.#log(
      'info',
      { upstream: this.name, tools: this.#tools.length },
      `[Gateway] upstream ${this.name} connected with ${this.#tools.length} tool(s)`,
    );
  }

  async #readTools(client: Client, generation: number): Promise<void> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    if (generation !== this.#generation) return;
    this.#tools = Object.freeze(tools);
    this.#options.onTools?.(this.#tools);
  }

  /** Re-reads the list after `tools/list_changed`; notifications arriving meanwhile cause one more read. */
  async #refreshTools(client: Client, generation: number): Promise<void> {
    if (this.#refreshing !== null) {
      this.#refreshAgain = true;
      return;
    }
    do {
      this.#refreshAgain = false;
      this.#refreshing = this.#readTools(client, generation).catch((error: unknown) => {
        this.#log(
          'warn',
          { upstream: this.name, error: messageOf(error) },
          `[Gateway] upstream ${this.name}: could not re-read its tools: ${messageOf(error)}`,
        );
      });
      await this.#refreshing;
      this.#refreshing = null;
    } while (this.#refreshAgain && generation === this.#generation);
  }

  /** `text` without the secrets of a call to `name` with `args` (by name, by the tool's schema, by shape). */
  #scrub(text: string, name: string, args: Readonly<Record<string, unknown>>): string {
    const redactor = this.#redactor;
    const schema = this.#tools.find((tool) => tool.name === name)?.inputSchema ?? null;
    return redactor.scrub(text, redactor.collectSecrets(args, schema as Record<string, unknown> | null));
  }

  #lost(generation: number, why: string): void {
    if (generation !== this.#generation || this.#state === 'closed') return;
    this.#generation++;
    this.#log('warn', { upstream: this.name }, `[Gateway] upstream ${this.name} lost: ${why}; reconnecting`);
    const client = this.#client;
    this.#client = null;
    this.#transport = null;
    void client?.close().catch(() => undefined);
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#state === 'closed') return;
    this.#setState('restarting');
    const delay = this.#backoff.next();
    this.#retryAt = Date.now() + delay;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#retryAt = null;
      void this.#connect();
    }, delay);
  }

  #clearRetry(): void {
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#retryAt = null;
  }

  #log(level: 'debug' | 'info' | 'warn', context: LogContext, message: string): void {
    try {
      this.#logger[level](context, message);
    } catch {
      // A failing logger must not break the connection's bookkeeping.
    }
  }

  #setState(state: UpstreamState): void {
    if (this.#state === state) return;
    this.#state = state;
    if (state === 'ready' || state === 'closed') {
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const waiter of waiters) waiter();
    }
    try {
      this.#options.onState?.(state);
    } catch {
      // A listener's fault must not break the connection's bookkeeping.
    }
  }
}
