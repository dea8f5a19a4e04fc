import type { Logger as PinoLogger } from 'pino';
import { BENCH_SCOPE } from '../fixtures/bench-tool.js';
import { createMilpaSetup } from '../fixtures/milpa-setup.js';
import { BENCH_HTTP_PRINCIPAL, BENCH_HTTP_TOKEN } from './bench-http-token.js';
import type { RunningHttpServer } from './running-http-server.js';

/** The part of `@milpa/mcp` the benchmark uses (the working tree's, or a snapshot of another commit's). */
export type MilpaMcpModule = Pick<typeof import('@milpa/mcp'), 'serveHttp' | 'staticTokenAuthenticator'>;

// Far above anything a run spends, so no call is ever throttled (as in the in-process rows).
const BUDGET = 1_000_000_000_000;

/**
 * The Milpa HTTP server of the throughput benchmark, configured as a user runs it: the registry of
 * the headline rows (`createMilpaSetup`: an `EventDispatcher`, an `InMemoryRateLimiter`, telemetry
 * through the global OpenTelemetry API, one audit line per call to pino at `info`), served by
 * `serveHttp` with every option at its default except a free port and `staticTokenAuthenticator`
 * granting the benchmark token the tool's scope. `resumable: false` adds `resumableStreams: false`
 * (a diagnostic; a version of `serveHttp` without that option ignores it).
 */
export async function startMilpaHttpServer(mcp: MilpaMcpModule, logger: PinoLogger, resumable = true): Promise<RunningHttpServer> {
  const { registry } = createMilpaSetup({ logger, budget: BUDGET });
  const options = {
    port: 0,
    authenticate: mcp.staticTokenAuthenticator({ [BENCH_HTTP_TOKEN]: { principal: BENCH_HTTP_PRINCIPAL, scopes: [BENCH_SCOPE] } }),
    ...(resumable ? {} : { resumableStreams: false }),
  };
  // Spread through a wider type: the option is new, and the benchmark also runs older commits.
  const handle = await mcp.serveHttp(registry, options as Parameters<MilpaMcpModule['serveHttp']>[1]);
  return { url: handle.url, close: () => handle.close() };
}
