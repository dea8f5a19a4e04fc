import { ToolContext, generateRandomId } from '@milpa/core';
import { serveHttp, serveStdio, staticTokenAuthenticator } from '@milpa/mcp';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import type { CliIo } from '../cli/cli-io.js';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';

/** Options of {@link serveDemoMcp}. */
export interface ServeDemoMcpOptions {
  /** Serve Streamable HTTP on this port (0: any free port); omitted: stdio. */
  readonly httpPort?: number;
  /** The interface to bind for HTTP; default `127.0.0.1`. */
  readonly host?: string;
  /** The bearer token HTTP callers present; default `MILPA_DEMO_MCP_TOKEN`, else a random one. */
  readonly token?: string;
  /** The principal of the caller (stdio) or of the token holder (HTTP). */
  readonly actor?: string;
  /** The scopes of the caller (stdio: default `*`) or of the token holder (HTTP: default every demo scope). */
  readonly scopes?: readonly string[];
  /** Resolves when the server should stop (HTTP); default on SIGINT or SIGTERM. */
  readonly stopSignal?: Promise<void>;
}

const SERVER_NAME = 'milpa-demo';

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

function listenFailure(error: unknown, port: number): DemoUsageError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') return new DemoUsageError(`port ${port} is already in use`, 'pick another port, or --http 0 for any free one', 'INVALID_OPTION');
  if (code === 'EACCES') return new DemoUsageError(`no permission to listen on port ${port}`, 'use a port above 1023', 'INVALID_OPTION');
  return null;
}

/**
 * Serves the demo registry over MCP: on stdin/stdout (every call runs as the trusted local process,
 * principal `stdio`, scopes `*`, unless `actor`/`scopes` say otherwise), or over Streamable HTTP on
 * loopback, where a bearer token stands for one identity and a caller without it is anonymous.
 * Audit lines and notices go to stderr, never to stdout (which carries the protocol on stdio). The
 * registry keeps the default rate budget (100 tokens per minute), not the tour's small one. A stdio
 * session is one run (at most three deletions); HTTP calls belong to no run, so the per-run
 * deletion rule refuses their deletions as history_incomplete.
 *
 * @example
 * await serveDemoMcp({}, io);                  // pnpm demo mcp
 * await serveDemoMcp({ httpPort: 3000 }, io);  // pnpm demo mcp --http 3000
 */
export async function serveDemoMcp(options: ServeDemoMcpOptions, io: CliIo): Promise<void> {
  // An empty rateLimit keeps the registry's own defaults: a client should not trip the tour's budget.
  const demo = await createDemoRuntime({ rateLimit: {}, onLog: (entry) => io.stderr(`${entry.message}\n`) });
  const instructions = demo.provider.getPromptSections().join('\n');

  if (options.httpPort === undefined) {
    // One client launched this process: its session is one run, so the per-run deletion limit
    // applies to it (three deletions), and a deletion is not refused for want of a run.
    const runId = await demo.registry.startRun();
    const principal = options.actor ?? 'stdio';
    const scopes = options.scopes ?? ['*'];
    const handle = await serveStdio(demo.registry, {
      name: SERVER_NAME,
      instructions,
      context: ({ requestId }) => ToolContext.stdio(requestId, principal, scopes).with({ runId }),
    });
    io.stderr(`Milpa demo MCP server on stdio (${demo.registry.getToolDefinitions().length} tools, run ${runId}); it stops when stdin closes.\n`);
    await handle.closed;
    return;
  }

  const token = options.token ?? io.env['MILPA_DEMO_MCP_TOKEN'] ?? generateRandomId();
  if (token.trim() === '') throw new DemoUsageError('the bearer token must not be empty', 'pass --token <token>, or omit it for a random one', 'INVALID_OPTION');
  const principal = options.actor ?? 'agent:mcp-client';
  const scopes = options.scopes ?? [...new Set(demo.registry.getToolDefinitions().flatMap((definition) => definition.scopes))];
  let handle;
  try {
    handle = await serveHttp(demo.registry, {
      name: SERVER_NAME,
      instructions,
      port: options.httpPort,
      host: options.host ?? '127.0.0.1',
      authenticate: staticTokenAuthenticator({ [token]: { principal, scopes } }),
    });
  } catch (error) {
    throw listenFailure(error, options.httpPort) ?? error;
  }
  io.stderr(
    `Milpa demo MCP server (Streamable HTTP) at ${handle.url}\n` +
      `  Authorization: Bearer ${token}\n` +
      `  stands for principal ${principal} with scopes ${scopes.join(', ')}.\n` +
      '  Without it a caller is anonymous, and the mcp policy (require_auth) denies every call.\n' +
      '  HTTP calls belong to no run, so deletions are refused (history_incomplete); use stdio to delete.\n' +
      '  Ctrl-C stops the server.\n',
  );
  await (options.stopSignal ?? untilInterrupted());
  await handle.close();
}
