import { parseArgs } from 'node:util';
import type { LogContext, Logger } from '@milpa/core';
import { loadGatewayConfig } from '../config/parse-gateway-config.js';
import { GatewayConfigError } from '../config/gateway-config-error.js';
import { createGateway, type Gateway } from '../gateway/gateway.js';

/** Where the command writes (stderr: stdout belongs to the MCP protocol when serving on stdio). */
export interface GatewayCliIo {
  /** Diagnostics and logs. */
  readonly stderr: { write(text: string): unknown };
  /** The environment `${NAME}` and `tokenEnv` read. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const USAGE = `Usage: milpa-gateway --config <gateway.json> [--check] [--verbose]

Serves the tools of the MCP servers listed in the configuration through Milpa's governed
pipeline, on stdio or Streamable HTTP as the configuration's server.transport says.

  -c, --config <file>  the gateway configuration (JSON)
      --check          check the configuration and exit (0: valid, 2: invalid)
  -v, --verbose        also log upstream connections and skipped tools
  -h, --help           show this help
`;

function stderrLogger(io: GatewayCliIo, verbose: boolean): Logger {
  const write = (level: string) => (_context: LogContext, message: string) => void io.stderr.write(`milpa-gateway ${level}: ${message}\n`);
  const ignore = (): void => undefined;
  return { debug: ignore, info: verbose ? write('info') : ignore, warn: write('warn'), error: write('error') };
}

/**
 * The `milpa-gateway` command: reads and checks the configuration, connects the upstreams and
 * serves clients until stdin closes (stdio) or a SIGINT/SIGTERM arrives. Resolves with the exit
 * code: 0 after a clean stop or a valid `--check`, 2 for bad arguments or an invalid
 * configuration (every problem listed on stderr), 1 for any other failure.
 *
 * @example
 * process.exitCode = await runGatewayCli(process.argv.slice(2));
 */
export async function runGatewayCli(
  argv: readonly string[],
  io: GatewayCliIo = { stderr: process.stderr, env: process.env },
): Promise<number> {
  let values: { config?: string | undefined; check?: boolean | undefined; verbose?: boolean | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string', short: 'c' },
        check: { type: 'boolean' },
        verbose: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr.write(`milpa-gateway: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    io.stderr.write(USAGE);
    return 0;
  }
  if (values.config === undefined) {
    io.stderr.write(`milpa-gateway: --config is required\n\n${USAGE}`);
    return 2;
  }
  let gateway: Gateway;
  try {
    const config = await loadGatewayConfig(values.config, io.env);
    if (values.check === true) {
      io.stderr.write(`milpa-gateway: ${values.config} is valid (${config.upstreams.length} upstream(s))\n`);
      return 0;
    }
    gateway = await createGateway(config, { logger: stderrLogger(io, values.verbose === true), env: io.env });
  } catch (error) {
    io.stderr.write(`milpa-gateway: ${(error as Error).message}\n`);
    return error instanceof GatewayConfigError ? 2 : 1;
  }
  try {
    const server = await gateway.serve();
    if (server.transport === 'http') io.stderr.write(`milpa-gateway: serving MCP at ${server.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (server.transport === 'stdio') void server.handle.closed.then(stop);
    });
    return 0;
  } catch (error) {
    io.stderr.write(`milpa-gateway: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await gateway.close();
  }
}
