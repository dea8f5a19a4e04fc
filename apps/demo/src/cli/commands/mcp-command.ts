import { InvalidArgumentError, Option, type Command } from 'commander';
import { DemoUsageError } from '../demo-usage-error.js';
import type { CliIo } from '../cli-io.js';
import { collectScopes } from './collect-scopes.js';
import { addStateOption, openCommandStores, type StateFlags } from './state-option.js';

/** The flags of `mcp`. */
interface McpFlags extends StateFlags {
  readonly http?: number;
  readonly host?: string;
  /** Refused: only here to say where the token goes instead. */
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
Streamable HTTP (--http <port>): bound to 127.0.0.1 by default. Choose a secret, put it in
MILPA_DEMO_MCP_TOKEN, and give your client the same value as "Authorization: Bearer <token>":
  export MILPA_DEMO_MCP_TOKEN="$(openssl rand -hex 32)"
  pnpm --silent demo mcp --http 3000
Without MILPA_DEMO_MCP_TOKEN the server does not start; it never prints the token. The token stands
for --actor (default agent:mcp-client) with --scope (default every scope the demo tools declare); a
request with another token is refused, and a caller without one can run nothing.
On both, every mutating tool (create_note, delete_note, publish_report, ...) asks for confirmation
first: a client that supports elicitation shows the person a form, any other gets a confirm_token to
replay the call with. Audit lines go to stderr. The rate budget is the registry's default, 100 tokens
per minute. Tokens, budgets, verifications, held calls and runs live in the state file
(--db, default <tmp>/milpa-demo/state.db), or in PostgreSQL with --store postgres://…, shared with
pnpm demo call; it is closed when the server stops.`;

/**
 * Adds `mcp [--http <port>] [--host H] [--actor P] [--scope S ...] [--db PATH | --store URL]`: serves the demo registry over MCP
 * (stdio, or Streamable HTTP with the bearer token from `MILPA_DEMO_MCP_TOKEN`). `@milpa/mcp` is
 * loaded only when this command runs.
 *
 * @example
 * addMcpCommand(program, io); // MILPA_DEMO_MCP_TOKEN=… pnpm demo mcp --http 3000
 */
export function addMcpCommand(program: Command, io: CliIo): Command {
  return addStateOption(
    program
      .command('mcp')
      .description('serve the demo registry over the Model Context Protocol (stdio, or Streamable HTTP with --http)')
      .option('--http <port>', 'serve Streamable HTTP on this port instead of stdio (0: any free port)', parsePort)
      .option('--host <host>', 'the interface to bind with --http', '127.0.0.1')
      // Hidden, and refused: a token in argv shows in `ps` and in the shell history.
      .addOption(new Option('--token <token>').hideHelp())
      .option('--actor <principal>', 'the principal calls run as (stdio) or the token stands for (HTTP)')
      .option('--scope <scope>', 'a scope of that principal; repeat it or give a comma list', collectScopes),
  )
    .addHelpText('after', MCP_HELP)
    .action(async (flags: McpFlags) => {
      if (flags.token !== undefined) {
        throw new DemoUsageError(
          '--token is not accepted: a token on the command line shows in ps and in the shell history',
          "put the token in MILPA_DEMO_MCP_TOKEN instead; run 'pnpm demo mcp --help' for an example",
          'INVALID_OPTION',
        );
      }
      const { serveDemoMcp } = await import('../../mcp/serve-demo-mcp.js');
      const stores = await openCommandStores(flags, io);
      try {
        await serveDemoMcp({ httpPort: flags.http, host: flags.host, actor: flags.actor, scopes: flags.scope, stores }, io);
      } finally {
        await stores.close();
      }
    });
}
