/**
 * One server of the HTTP throughput benchmark, in a process of its own (forked by
 * `http-throughput.ts` with an IPC channel): `node --import tsx http-bench-server.ts <kind>`.
 * Reports `ready` with its URL, then measures its own CPU (`process.cpuUsage()`), event-loop
 * utilization and audit lines between the parent's `start` and `stop`, optionally under the V8 CPU
 * profiler (the same sampler as `node --cpu-prof`, limited to the measured window).
 * With `BENCH_HTTP_MILPA_ROOT` (and `milpa-snapshot-register.mjs` imported), `@milpa/*` come from a
 * snapshot of another commit.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createProductionLogger } from '../fixtures/discard-stream.js';
import { startBareSdkHttpServer } from './bare-sdk-http-server.js';
import type { ChildMessage, HttpServerKind, ParentMessage } from './http-bench-messages.js';
import { startMilpaHttpServer, type MilpaMcpModule } from './milpa-http-server.js';
import type { RunningHttpServer } from './running-http-server.js';

// Finer than the default 1 ms, so a few seconds give enough samples per function.
const PROFILE_INTERVAL_MICROS = 100;

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function loadMilpaMcp(): Promise<MilpaMcpModule> {
  return import('@milpa/mcp');
}

async function startServer(kind: HttpServerKind, production: ReturnType<typeof createProductionLogger>): Promise<RunningHttpServer> {
  if (kind === 'bare') return startBareSdkHttpServer(null);
  if (kind === 'bare-pino') return startBareSdkHttpServer(production.logger);
  if (kind === 'bare-resumable') return startBareSdkHttpServer(null, true);
  return startMilpaHttpServer(await loadMilpaMcp(), production.logger, kind !== 'milpa-noresume');
}

async function main(): Promise<void> {
  const kind = process.argv[2] as HttpServerKind;
  const production = createProductionLogger();
  const server = await startServer(kind, production);
  let window: { cpu: NodeJS.CpuUsage; elu: ReturnType<typeof performance.eventLoopUtilization>; lines: number; at: number } | null = null;
  let profiler: { session: Session; file: string } | null = null;

  process.on('message', (message: ParentMessage) => {
    void (async () => {
      if (message.type === 'start') {
        if (message.profileFile !== undefined) {
          const session = new Session();
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_MICROS });
          await session.post('Profiler.start');
          profiler = { session, file: message.profileFile };
        }
        window = {
          cpu: process.cpuUsage(),
          elu: performance.eventLoopUtilization(),
          lines: production.stream.lines,
          at: performance.now(),
        };
        send({ type: 'started' });
      } else if (message.type === 'stop') {
        if (window === null) throw new Error('stop before start');
        const cpu = process.cpuUsage(window.cpu);
        const measured = {
          cpuMicros: cpu.user + cpu.system,
          wallMs: performance.now() - window.at,
          eventLoopUtilization: performance.eventLoopUtilization(window.elu).utilization,
          lines: production.stream.lines - window.lines,
        };
        window = null;
        if (profiler !== null) {
          const { profile } = await profiler.session.post('Profiler.stop');
          writeFileSync(profiler.file, JSON.stringify(profile));
          profiler.session.disconnect();
          profiler = null;
        }
        send({ type: 'window', window: measured });
      } else {
        await server.close();
        process.exit(0);
      }
    })().catch((error: unknown) =>
      send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  send({ type: 'ready', url: server.url });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
