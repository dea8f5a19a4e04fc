import { MilpaError, silentLogger, type ApprovalGate, type LogContext, type Logger } from '@milpa/core';
import { InMemoryRateLimiter, ToolAlreadyRegisteredError, terminalApprovalGate, type ToolRegistry } from '@milpa/tool-runtime';
import {
  serveHttp,
  serveStdio,
  staticTokenAuthenticator,
  type HttpServeOptions,
  type McpHttpHandle,
  type McpIdentity,
  type McpStdioHandle,
  type StdioServeOptions,
} from '@milpa/mcp';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayConfig, UpstreamConfig } from '../config/gateway-config.js';
import { GatewayConfigError } from '../config/gateway-config-error.js';
import { resolveToolPolicy, type ResolvedToolPolicy } from '../tools/resolve-tool-policy.js';
import { toGatewayTool } from '../tools/to-gateway-tool.js';
import { UpstreamConnection, type UpstreamState } from '../upstream/upstream-connection.js';
import { GatewayToolRegistry } from './gateway-tool-registry.js';
import type { GatewayOptions } from './gateway-options.js';
import { GATEWAY_PACKAGE_VERSION } from './gateway-package-version.js';
import { ToolApprovalGate } from './tool-approval-gate.js';
import { ToolCostRateLimiter } from './tool-cost-rate-limiter.js';

/** The default deadline of a forwarded call, in milliseconds. */
const DEFAULT_TIMEOUT_MS = 60_000;

/** What the gateway knows of one upstream right now. */
export interface UpstreamStatus {
  /** The upstream's name. */
  readonly name: string;
  /** Where its connection stands. */
  readonly state: UpstreamState;
  /** The gateway names of the tools it offers (as last listed, kept while it restarts). */
  readonly tools: readonly string[];
  /** Its process id, for a running stdio upstream; otherwise null. */
  readonly pid: number | null;
}

/** A server the gateway started for its clients: on stdio, or over Streamable HTTP at `url`. */
export type GatewayServerHandle =
  | {
      /** Served on stdin/stdout. */
      readonly transport: 'stdio';
      /** The `@milpa/mcp` handle (`closed` resolves when the client hangs up). */
      readonly handle: McpStdioHandle;
      /** Stops serving. */
      close(): Promise<void>;
    }
  | {
      /** Served over Streamable HTTP. */
      readonly transport: 'http';
      /** The `@milpa/mcp` handle. */
      readonly handle: McpHttpHandle;
      /** The MCP endpoint, e.g. `http://127.0.0.1:3100/mcp`. */
      readonly url: string;
      /** Stops serving. */
      close(): Promise<void>;
    };

interface GatewayTool {
  readonly connection: UpstreamConnection;
  readonly upstreamName: string;
  readonly policy: ResolvedToolPolicy;
  readonly schema: string;
}

function usesApproval(config: GatewayConfig, kind: 'host' | 'terminal'): boolean {
  return config.upstreams.some(
    (upstream) => upstream.defaults?.approval === kind || Object.values(upstream.tools ?? {}).some((policy) => policy.approval === kind),
  );
}

/**
 * A running gateway: one governed registry holding the tools of every upstream MCP server, each
 * under its upstream's prefix and policy. Build it with {@link createGateway}; serve it with
 * {@link Gateway.serve}, {@link Gateway.serveStdio} or {@link Gateway.serveHttp}.
 *
 * Every call runs the registry's whole pipeline (validation, scopes, channel policy, deny list,
 * invocation rules, rate limit, confirmation, approval) before it is forwarded; a refused call
 * never reaches the upstream. Upstreams that die are restarted with backoff; their tools answer a
 * typed `unavailable` failure meanwhile. `tools/list_changed` from an upstream registers new tools,
 * hides withdrawn ones and notifies the connected clients (stdio and HTTP).
 */
export class Gateway {
  /** The configuration the gateway runs. */
  readonly config: GatewayConfig;
  /** The governed registry holding the upstreams' tools. */
  readonly registry: ToolRegistry;
  readonly #logger: Logger;
  readonly #connections: readonly UpstreamConnection[];
  readonly #tools = new Map<string, GatewayTool>();
  readonly #listeners = new Set<() => void>();
  /** What clients were last offered of each upstream (its connection's list is already the new one when a sync starts). */
  readonly #visible = new Map<UpstreamConnection, readonly string[]>();
  readonly #servers = new Set<GatewayServerHandle>();
  readonly #hostGate: ApprovalGate | null;
  readonly #terminalGate: ApprovalGate;
  readonly #env: Readonly<Record<string, string | undefined>>;

  /** @internal Use {@link createGateway}. */
  constructor(config: GatewayConfig, options: GatewayOptions = {}) {
    if (usesApproval(config, 'host') && options.approvalGate === undefined) {
      throw new GatewayConfigError([
        {
          path: 'upstreams',
          message:
            "a tool policy says approval: 'host', but no approvalGate was passed to createGateway " +
            "(the milpa-gateway command has none: use 'terminal')",
        },
      ]);
    }
    this.config = config;
    this.#logger = options.logger ?? silentLogger;
    this.#hostGate = options.approvalGate ?? null;
    this.#env = options.env ?? process.env;
    this.#terminalGate = options.terminalApprovalGate ?? terminalApprovalGate();
    const rateLimit = config.rateLimit ?? {};
    this.registry = new GatewayToolRegistry(
      {
        ...options.registry,
        logger: options.registry?.logger ?? this.#logger,
        ...(config.deny === undefined ? {} : { deny: [...config.deny] }),
        ...(config.groups === undefined
          ? {}
          : { groups: Object.fromEntries(Object.entries(config.groups).map(([name, tools]) => [name, [...tools]])) }),
        rateLimiter: new ToolCostRateLimiter(
          options.rateLimiter ?? new InMemoryRateLimiter(),
          (tool) => this.#tools.get(tool)?.policy.rateCost ?? null,
        ),
        rateLimit,
        approvalGate: new ToolApprovalGate((tool) => this.#approvalGateOf(tool)),
        // Each tool caps its own result (its policy's maxResultTokens), in its handler.
        maxResultTokens: 0,
      },
      (name) => this.#isOffered(name),
    );
    const restart = { initialDelayMs: config.restart?.initialDelayMs ?? 500, maxDelayMs: config.restart?.maxDelayMs ?? 30_000 };
    this.#connections = config.upstreams.map(
      (upstream) =>
        new UpstreamConnection(upstream, {
          restart,
          logger: this.#logger,
          redactor: this.registry.getAuditLogger().redactor,
          clientInfo: { name: config.name ?? 'milpa-gateway', version: GATEWAY_PACKAGE_VERSION },
          onTools: (tools) => this.#sync(upstream, tools),
        }),
    );
  }

  /** Connects every upstream (a failed first attempt is retried in the background). */
  async start(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.start()));
  }

  /** Every upstream's status, in configuration order. */
  upstreams(): readonly UpstreamStatus[] {
    return this.#connections.map((connection) => ({
      name: connection.name,
      state: connection.state,
      tools: connection.tools.map((tool) => this.#nameOf(connection.config, tool.name)).filter((name) => this.registry.has(name)),
      pid: connection.pid,
    }));
  }

  /**
   * Resolves when the named upstream (or every upstream) is connected.
   * @throws MilpaError `UNKNOWN_UPSTREAM` (as a rejection) for a name the configuration does not have.
   */
  async whenReady(name?: string): Promise<void> {
    const connections = name === undefined ? this.#connections : this.#connections.filter((connection) => connection.name === name);
    if (connections.length === 0) throw new MilpaError(`No upstream is named '${String(name)}'.`, { code: 'UNKNOWN_UPSTREAM' });
    await Promise.all(connections.map((connection) => connection.whenReady()));
  }

  /** Calls `listener` whenever the tools clients are offered change; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Serves the gateway to one local client on stdin/stdout (principal `stdio` with scopes `['*']`
   * unless the configuration or `options` say otherwise). The client is sent
   * `notifications/tools/list_changed` when an upstream's tools change.
   */
  async serveStdio(options: StdioServeOptions = {}): Promise<McpStdioHandle> {
    const server = this.config.server ?? {};
    const handle = await serveStdio(this.registry, {
      name: this.config.name ?? 'milpa-gateway',
      version: GATEWAY_PACKAGE_VERSION,
      ...(server.principal === undefined ? {} : { principal: server.principal }),
      ...(server.scopes === undefined ? {} : { scopes: [...server.scopes] }),
      ...(server.confirmation === undefined ? {} : { confirmation: server.confirmation }),
      ...options,
    });
    const unsubscribe = this.onToolsChanged(() => {
      handle.server.sendToolListChanged().catch(() => undefined);
    });
    const entry: GatewayServerHandle = {
      transport: 'stdio',
      handle,
      close: async () => {
        unsubscribe();
        this.#servers.delete(entry);
        await handle.close();
      },
    };
    void handle.closed.then(unsubscribe);
    this.#servers.add(entry);
    return handle;
  }

  /**
   * Serves the gateway over Streamable HTTP with `@milpa/mcp`'s `serveHttp`: by default on the
   * configured port and host, clients authenticating with the configured bearer tokens (each
   * token's principal and scopes become the caller's). `options` override any of it.
   */
  async serveHttp(options: HttpServeOptions = {}): Promise<McpHttpHandle> {
    const server = this.config.server ?? {};
    const grants: Record<string, McpIdentity> = {};
    for (const token of server.tokens ?? []) {
      const value = this.#env[token.tokenEnv];
      if (value !== undefined && value !== '') grants[value] = { principal: token.principal, scopes: [...(token.scopes ?? [])] };
    }
    const handle = await serveHttp(this.registry, {
      name: this.config.name ?? 'milpa-gateway',
      version: GATEWAY_PACKAGE_VERSION,
      ...(server.port === undefined ? {} : { port: server.port }),
      ...(server.host === undefined ? {} : { host: server.host }),
      ...(server.confirmation === undefined ? {} : { confirmation: server.confirmation }),
      ...(Object.keys(grants).length === 0 ? {} : { authenticate: staticTokenAuthenticator(grants) }),
      ...options,
    });
    const unsubscribe = this.onToolsChanged(() => {
      void handle.sendToolListChanged();
    });
    const entry: GatewayServerHandle = {
      transport: 'http',
      handle,
      url: handle.url,
      close: async () => {
        unsubscribe();
        this.#servers.delete(entry);
        await handle.close();
      },
    };
    this.#servers.add(entry);
    return handle;
  }

  /** Serves the gateway as the configuration's `server.transport` says (stdio by default). */
  async serve(): Promise<GatewayServerHandle> {
    if (this.config.server?.transport === 'http') {
      const handle = await this.serveHttp();
      return [...this.#servers].find((entry) => entry.handle === handle)!;
    }
    const handle = await this.serveStdio();
    return [...this.#servers].find((entry) => entry.handle === handle)!;
  }

  /** Stops the servers the gateway started and closes every upstream (stdio children are stopped). */
  async close(): Promise<void> {
    await Promise.all([...this.#servers].map((server) => server.close().catch(() => undefined)));
    await Promise.all(this.#connections.map((connection) => connection.close()));
    this.#listeners.clear();
  }

  #nameOf(upstream: UpstreamConfig, tool: string): string {
    return `${upstream.prefix ?? `${upstream.name}_`}${tool}`;
  }

  #isOffered(name: string): boolean {
    const entry = this.#tools.get(name);
    return entry?.connection.tools.some((tool) => tool.name === entry.upstreamName) ?? false;
  }

  #approvalGateOf(name: string): ApprovalGate | null {
    const approval = this.#tools.get(name)?.policy.approval ?? null;
    if (approval === 'terminal') return this.#terminalGate;
    if (approval === 'host') return this.#hostGate;
    return null;
  }

  /** Registers an upstream's new tools and tells clients when what they are offered changed. */
  #sync(upstream: UpstreamConfig, tools: readonly Tool[]): void {
    const connection = this.#connections.find((candidate) => candidate.config === upstream)!;
    const before = this.#visible.get(connection) ?? [];
    for (const tool of tools) {
      const name = this.#nameOf(upstream, tool.name);
      const known = this.#tools.get(name);
      if (known === undefined) {
        this.#register(connection, upstream, tool, name);
      } else if (known.schema !== JSON.stringify(tool.inputSchema)) {
        this.#log(
          'warn',
          { upstream: upstream.name, tool: name },
          `[Gateway] upstream ${upstream.name} changed the input schema of ${tool.name}; ` +
            `${name} keeps the schema it was registered with until the gateway restarts`,
        );
      }
    }
    const after = this.#visibleOf(connection);
    this.#visible.set(connection, after);
    if (before.length !== after.length || before.some((name, index) => name !== after[index])) this.#notify();
  }

  /** The gateway names of the connection's tools that clients are offered, sorted. */
  #visibleOf(connection: UpstreamConnection): readonly string[] {
    return [...this.#tools.keys()].filter((name) => this.#tools.get(name)?.connection === connection && this.#isOffered(name)).sort();
  }

  #register(connection: UpstreamConnection, upstream: UpstreamConfig, tool: Tool, name: string): void {
    const policy = resolveToolPolicy(tool, upstream.defaults, upstream.tools?.[tool.name], {
      maxResultTokens: this.config.maxResultTokens ?? 2_500,
      timeoutMs: DEFAULT_TIMEOUT_MS,
    });
    const entry: GatewayTool = { connection, upstreamName: tool.name, policy, schema: JSON.stringify(tool.inputSchema) };
    try {
      this.registry.register(toGatewayTool({ connection, tool, name, policy }));
    } catch (error) {
      const why =
        error instanceof ToolAlreadyRegisteredError ? `another upstream already has a tool named ${name}` : (error as Error).message;
      this.#log(
        'warn',
        { upstream: upstream.name, tool: tool.name },
        `[Gateway] upstream ${upstream.name}: tool ${tool.name} is not served: ${why}`,
      );
      return;
    }
    // Denied tools are never registered; remembering them would only make them look offered.
    if (this.registry.has(name)) this.#tools.set(name, entry);
  }

  #notify(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#log('warn', {}, `[Gateway] a tools-changed listener failed: ${(error as Error).message}`);
      }
    }
  }

  #log(level: 'info' | 'warn', context: LogContext, message: string): void {
    try {
      this.#logger[level](context, message);
    } catch {
      // A failing logger must not stop the gateway.
    }
  }
}

/**
 * Builds a gateway from a checked configuration (see `parseGatewayConfig`, `loadGatewayConfig`)
 * and connects its upstreams; resolves once each has connected or failed its first attempt
 * (failed ones keep retrying in the background).
 *
 * @throws GatewayConfigError when a policy needs `approval: 'host'` and no `approvalGate` is given.
 * @example
 * const gateway = await createGateway(await loadGatewayConfig('gateway.json'), { logger: pino() });
 * const server = await gateway.serve(); // stdio or HTTP, as configured
 * // later: await gateway.close();
 */
export async function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const gateway = new Gateway(config, options);
  await gateway.start();
  return gateway;
}
