import { InvalidArgumentError, type Command } from 'commander';
import type { LogContext, Logger } from '@milpa/core';
import { STATE_DIR_ENV } from '../../state/demo-state-path.js';
import { DemoUsageError } from '../demo-usage-error.js';
import type { CliIo } from '../cli-io.js';

/** The flags of `gateway`. */
interface GatewayFlags {
  readonly http?: number;
  readonly host?: string;
  readonly printConfig?: boolean;
}

/** The environment variable holding the bearer token HTTP clients of the demo gateway present. */
const TOKEN_VARIABLE = 'MILPA_DEMO_GATEWAY_TOKEN';

/** The demo's mutating tools: the demo MCP server asks its own confirmation for them, so the demo gateway does not serve them. */
const WRITE_TOOLS = ['create_note', 'delete_note', 'publish_report', 'send_digest', 'request_verification', 'resolve_verification'];

const GATEWAY_HELP = `
The gateway starts the demo's own MCP server (pnpm demo mcp) as its upstream, on stdio, and serves
its tools as demo.<name> through @milpa/gateway: per-tool scopes, a rate cost, a result cap, and a
deny group that keeps the mutating tools out. --print-config shows the configuration it runs (the
same gateway.json format as the milpa-gateway command).
stdio (the default), for a client that launches it:
  pnpm --silent demo gateway
Streamable HTTP: put a secret in ${TOKEN_VARIABLE}; the client sends it as "Authorization: Bearer <token>"
and acts as agent:gateway-client with the scopes notes:read and almanac:read:
  export ${TOKEN_VARIABLE}="$(openssl rand -hex 32)"
  pnpm --silent demo gateway --http 3100`;

/**
 * The configuration `pnpm demo gateway` runs: the demo MCP server (started with the same Node
 * flags and entry point as this process) as the one upstream, and the demo's policy.
 */
export function demoGatewayConfig(
  flags: GatewayFlags,
  upstream: { readonly command: string; readonly args: readonly string[]; readonly stateDirectory?: string | undefined },
): Record<string, unknown> {
  return {
    name: 'milpa-demo-gateway',
    upstreams: [
      {
        name: 'demo',
        prefix: 'demo.',
        command: upstream.command,
        args: [...upstream.args, 'mcp'],
        // An upstream gets none of the gateway's environment; the state folder, when chosen, is passed on.
        ...(upstream.stateDirectory === undefined ? {} : { env: { [STATE_DIR_ENV]: upstream.stateDirectory } }),
        defaults: { scopes: ['workspace:read'] },
        tools: {
          list_notes: { scopes: ['notes:read'], rateCost: 2 },
          get_note: { scopes: ['notes:read'] },
          lookup_crop: { scopes: ['almanac:read'], maxResultTokens: 200 },
        },
      },
    ],
    deny: ['group:writes'],
    groups: { 'group:writes': WRITE_TOOLS.map((name) => `demo.${name}`) },
    server:
      flags.http === undefined
        ? { transport: 'stdio' }
        : {
            transport: 'http',
            port: flags.http,
            host: flags.host ?? '127.0.0.1',
            tokens: [{ tokenEnv: TOKEN_VARIABLE, principal: 'agent:gateway-client', scopes: ['notes:read', 'almanac:read'] }],
          },
  };
}

function stderrLogger(io: CliIo): Logger {
  const ignore = (): void => undefined;
  const warn = (_context: LogContext, message: string): void => io.stderr(`gateway: ${message}\n`);
  return { debug: ignore, info: ignore, warn, error: warn };
}

/**
 * Adds `gateway [--http <port>] [--host H] [--print-config]`: the demo MCP server's tools served
 * through `@milpa/gateway`. `@milpa/gateway` is loaded only when this command runs.
 *
 * @example
 * addGatewayCommand(program, io); // pnpm --silent demo gateway
 */
export function addGatewayCommand(program: Command, io: CliIo): Command {
  return program
    .command('gateway')
    .description("serve the demo MCP server's tools through @milpa/gateway (stdio, or Streamable HTTP with --http)")
    .option('--http <port>', 'serve Streamable HTTP on this port instead of stdio (0: any free port)', (value: string) => {
      if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
      return Number(value);
    })
    .option('--host <host>', 'the interface to bind with --http', '127.0.0.1')
    .option('--print-config', 'print the gateway configuration this command runs, and exit')
    .addHelpText('after', GATEWAY_HELP)
    .action(async (flags: GatewayFlags) => {
      // The upstream is this demo again (`pnpm demo mcp`), run the way this process runs: the same
      // Node flags (tsx's loader under `pnpm demo`) and entry point (src/main.ts or dist/main.js).
      const config = demoGatewayConfig(flags, {
        command: process.execPath,
        args: [...process.execArgv, process.argv[1] ?? ''],
        stateDirectory: io.env[STATE_DIR_ENV],
      });
      if (flags.printConfig === true) {
        io.stdout(`${JSON.stringify(config, null, 2)}\n`);
        return;
      }
      const { GatewayConfigError, createGateway, parseGatewayConfig } = await import('@milpa/gateway');
      let parsed;
      try {
        parsed = parseGatewayConfig(config, { env: io.env });
      } catch (error) {
        if (!(error instanceof GatewayConfigError)) throw error;
        const hint =
          `export ${TOKEN_VARIABLE}="$(openssl rand -hex 32)" ` +
          'and give your MCP client the same value; ' +
          "run 'pnpm demo gateway --help'";
        throw new DemoUsageError(error.issues.map((issue) => issue.message).join('; '), hint, 'INVALID_OPTION');
      }
      const gateway = await createGateway(parsed, { logger: stderrLogger(io), env: io.env });
      try {
        const server = await gateway.serve();
        if (server.transport === 'http')
          io.stderr(`Demo gateway at ${server.url} (Authorization: Bearer $${TOKEN_VARIABLE}); Ctrl-C stops it.\n`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', () => resolve());
          process.once('SIGTERM', () => resolve());
          if (server.transport === 'stdio') void server.handle.closed.then(() => resolve());
        });
      } finally {
        await gateway.close();
      }
    });
}
