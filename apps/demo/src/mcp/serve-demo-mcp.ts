import { ToolContext } from '@milpa/core';
import { serveHttp, serveStdio, staticTokenAuthenticator } from '@milpa/mcp';
import type { DemoStores } from '../state/demo-stores.js';
import { DEFAULT_CHANNEL_POLICIES, type ChannelPolicy } from '@milpa/tool-runtime';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import type { CliIo } from '../cli/cli-io.js';
import { createDemoRuntime, type DemoRuntime } from '../runtime/create-demo-runtime.js';

/** Options of {@link serveDemoMcp}. */
export interface ServeDemoMcpOptions {
  /** Serve Streamable HTTP on this port (0: any free port); omitted: stdio. */
  readonly httpPort?: number;
  /** The interface to bind for HTTP; default `127.0.0.1`. */
  readonly host?: string;
  /** The principal of the caller (stdio) or of the token holder (HTTP). */
  readonly actor?: string;
  /** The scopes of the caller (stdio: default `*`) or of the token holder (HTTP: default every demo scope). */
  readonly scopes?: readonly string[];
  /** Resolves when the server should stop (HTTP); default on SIGINT or SIGTERM. */
  readonly stopSignal?: Promise<void>;
  /**
   * The stores (SQLite or PostgreSQL) holding the server's state (tokens, budgets, verifications, held calls, runs);
   * default in memory. The caller closes them.
   */
  readonly stores?: DemoStores;
}

const SERVER_NAME = 'milpa-demo';

/** The environment variable holding the bearer token HTTP callers present. */
const TOKEN_VARIABLE = 'MILPA_DEMO_MCP_TOKEN';

/**
 * The served `mcp` channel: the built-in policy (an authenticated principal) plus a confirmation
 * before any mutating tool runs, so a model cannot change the notes without the person's yes. Only
 * the served registry gets it: the tour and `pnpm demo call --channel mcp` keep the built-in policy.
 */
const SERVED_MCP_POLICY: ChannelPolicy = Object.freeze({ ...DEFAULT_CHANNEL_POLICIES['mcp'], require_confirmation_for_mutating: true });

const CONFIRMATION_NOTE =
  'Mutating tools ask first: a form when the client supports elicitation, else a confirm_token to replay the call with.';

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

function listenFailure(error: unknown, port: number): DemoUsageError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return new DemoUsageError(`port ${port} is already in use`, 'pick another port, or --http 0 for any free one', 'INVALID_OPTION');
  if (code === 'EACCES') return new DemoUsageError(`no permission to listen on port ${port}`, 'use a port above 1023', 'INVALID_OPTION');
  return null;
}

/**
 * The bearer token from the environment. There is no generated fallback: a token the server made
 * up could only reach the user by being printed, and a printed secret ends up in terminal
 * scrollback, CI logs and bug reports. Neither message quotes the value.
 */
function readBearerToken(env: CliIo['env']): string {
  const token = env[TOKEN_VARIABLE];
  const hint = `export ${TOKEN_VARIABLE}="$(openssl rand -hex 32)", or any secret of your choice, and give your MCP client the same value`;
  if (token === undefined || token === '') {
    throw new DemoUsageError(
      `${TOKEN_VARIABLE} is not set: the HTTP server needs the bearer token its callers will present`,
      hint,
      'INVALID_OPTION',
    );
  }
  // A header value cannot carry a token with blanks (clients trim it), so it could never match.
  if (/\s/.test(token))
    throw new DemoUsageError(`${TOKEN_VARIABLE} contains whitespace: a bearer token is one word`, hint, 'INVALID_OPTION');
  return token;
}

/**
 * Serves the demo registry over MCP: on stdin/stdout (every call runs as the trusted local process,
 * principal `stdio`, scopes `*`, unless `actor`/`scopes` say otherwise), or over Streamable HTTP on
 * loopback, where callers present the bearer token from `MILPA_DEMO_MCP_TOKEN` (without it the
 * server refuses to start) and the token stands for one identity. On both, every mutating tool asks
 * for confirmation first: a client that supports elicitation forms shows the person a form, any
 * other gets the two-call `confirm_token` flow. Audit lines and notices go to stderr, never to
 * stdout (which carries the protocol on stdio), and the token is printed nowhere. The registry
 * keeps the default rate budget (100 tokens per minute), not the tour's small one. A stdio session
 * is one run (at most three deletions); HTTP calls belong to no run, so the per-run deletion rule
 * refuses their deletions as history_incomplete.
 *
 * @throws DemoUsageError over HTTP when `MILPA_DEMO_MCP_TOKEN` is missing or not one word, or the
 *   port cannot be bound.
 * @example
 * await serveDemoMcp({}, io);                  // pnpm demo mcp
 * await serveDemoMcp({ httpPort: 3000 }, io);  // MILPA_DEMO_MCP_TOKEN=… pnpm demo mcp --http 3000
 */
export async function serveDemoMcp(options: ServeDemoMcpOptions, io: CliIo): Promise<void> {
  if (options.httpPort === undefined) {
    await serveOnStdio(await createServedRuntime(io, options.stores), options, io);
    return;
  }
  // Before anything starts: a server nobody can call is no use.
  const token = readBearerToken(io.env);
  await serveOnHttp(await createServedRuntime(io, options.stores), { ...options, httpPort: options.httpPort }, token, io);
}

/** The demo registry as served: the registry's default rate budget, and the confirming `mcp` policy. */
function createServedRuntime(io: CliIo, stores: DemoStores | undefined): Promise<DemoRuntime> {
  // An empty rateLimit keeps the registry's own defaults: a client should not trip the tour's budget.
  return createDemoRuntime({
    ...(stores === undefined ? {} : { stores }),
    rateLimit: {},
    channelPolicies: { mcp: SERVED_MCP_POLICY },
    onLog: (entry) => io.stderr(`${entry.message}\n`),
  });
}

async function serveOnStdio(demo: DemoRuntime, options: ServeDemoMcpOptions, io: CliIo): Promise<void> {
  // One client launched this process: its session is one run, so the per-run deletion limit
  // applies to it (three deletions), and a deletion is not refused for want of a run.
  const runId = await demo.registry.startRun();
  const principal = options.actor ?? 'stdio';
  const scopes = options.scopes ?? ['*'];
  const handle = await serveStdio(demo.registry, {
    name: SERVER_NAME,
    instructions: demo.provider.getPromptSections().join('\n'),
    context: ({ requestId }) => ToolContext.stdio(requestId, principal, scopes).with({ runId }),
  });
  io.stderr(
    `Milpa demo MCP server on stdio (${demo.registry.getToolDefinitions().length} tools, run ${runId}); it stops when stdin closes.\n` +
      `  ${CONFIRMATION_NOTE}\n`,
  );
  await handle.closed;
}

async function serveOnHttp(
  demo: DemoRuntime,
  options: ServeDemoMcpOptions & { readonly httpPort: number },
  token: string,
  io: CliIo,
): Promise<void> {
  const principal = options.actor ?? 'agent:mcp-client';
  const scopes = options.scopes ?? [...new Set(demo.registry.getToolDefinitions().flatMap((definition) => definition.scopes))];
  let handle;
  try {
    handle = await serveHttp(demo.registry, {
      name: SERVER_NAME,
      instructions: demo.provider.getPromptSections().join('\n'),
      port: options.httpPort,
      host: options.host ?? '127.0.0.1',
      // Every request presents the token; a request without it, or with another, is refused.
      authenticate: staticTokenAuthenticator({ [token]: { principal, scopes } }),
    });
  } catch (error) {
    throw listenFailure(error, options.httpPort) ?? error;
  }
  io.stderr(
    `Milpa demo MCP server (Streamable HTTP) at ${handle.url}\n` +
      `  Callers send "Authorization: Bearer <the value of ${TOKEN_VARIABLE}>";\n` +
      `  it stands for principal ${principal} with scopes ${scopes.join(', ')}.\n` +
      '  A request with another token is refused, and a caller without one can run nothing.\n' +
      `  ${CONFIRMATION_NOTE}\n` +
      '  HTTP calls belong to no run, so deletions are refused (history_incomplete); use stdio to delete.\n' +
      '  Ctrl-C stops the server.\n',
  );
  await (options.stopSignal ?? untilInterrupted());
  await handle.close();
}
