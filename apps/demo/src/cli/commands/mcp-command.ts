import { InvalidArgumentError, type Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { collectScopes } from './collect-scopes.js';

/** The flags of `mcp`. */
interface McpFlags {
  readonly http?: number;
  readonly host?: string;
  readonly token?: string;
  readonly actor?: string;
  readonly scope?: readonly string[];
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return port;
}

const MCP_HELP = `
stdio (the default): for a client that launches the server, e.g. Claude Desktop or an IDE. Every call
runs as the trusted local process (ToolContext.stdio: principal "stdio", scopes *) unless --actor /
--scope say otherwise. Launch it without pnpm's banner on stdout:
  pnpm --silent demo mcp
Streamable HTTP (--http <port>): bound to 127.0.0.1 by default. Callers present
"Authorization: Bearer <token>" (--token, else MILPA_DEMO_MCP_TOKEN, else a random token printed on
stderr); the token stands for --actor (default agent:mcp-client) with --scope (default every scope
the demo tools declare). A caller without it is anonymous, and the mcp policy denies its calls.
Audit lines go to stderr. The rate budget is the registry's default, 100 tokens per minute.`;

/**
 * Adds `mcp [--http <port>] [--host H] [--token T] [--actor P] [--scope S ...]`: serves the demo
 * registry over MCP (stdio, or Streamable HTTP). `@milpa/mcp` is loaded only when this command runs.
 *
 * @example
 * addMcpCommand(program, io); // pnpm demo mcp --http 3000
 */
export function addMcpCommand(program: Command, io: CliIo): Command {
  return program
    .command('mcp')
    .description('serve the demo registry over the Model Context Protocol (stdio, or Streamable HTTP with --http)')
    .option('--http <port>', 'serve Streamable HTTP on this port instead of stdio (0: any free port)', parsePort)
    .option('--host <host>', 'the interface to bind with --http', '127.0.0.1')
    .option('--token <token>', 'the bearer token HTTP callers present (default: MILPA_DEMO_MCP_TOKEN, else random)')
    .option('--actor <principal>', 'the principal calls run as (stdio) or the token stands for (HTTP)')
    .option('--scope <scope>', 'a scope of that principal; repeat it or give a comma list', collectScopes)
    .addHelpText('after', MCP_HELP)
    .action(async (flags: McpFlags) => {
      const { serveDemoMcp } = await import('../../mcp/serve-demo-mcp.js');
      await serveDemoMcp(
        { httpPort: flags.http, host: flags.host, token: flags.token, actor: flags.actor, scopes: flags.scope },
        io,
      );
    });
}
