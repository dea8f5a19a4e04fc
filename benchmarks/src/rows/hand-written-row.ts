import type { Logger as PinoLogger } from 'pino';
import type { DiscardStream } from '../fixtures/discard-stream.js';
import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_SCOPE, BENCH_TOOL_NAME, INVALID_ARGS, benchJsonSchema } from '../fixtures/bench-tool.js';
import { HandWrittenPipeline, type HandWrittenAuditEntry, type HandWrittenCaller } from './hand-written-pipeline.js';

/** What a hand-written row is: its table id and label, and where its audit hook writes. */
export interface HandWrittenRowOptions {
  /** Table id. */
  readonly id: string;
  /** Table label. */
  readonly label: string;
  /** The budget of the fixed-window counter; high enough never to trip. */
  readonly budget: number;
  /** The production logger and its stream (one info line per call), or null for a no-op audit hook. */
  readonly production: { readonly logger: PinoLogger; readonly stream: DiscardStream } | null;
}

/**
 * A row timing the hand-written minimal pipeline. With a logger, every call writes the line a
 * careful host would write by hand: `{ tool, principal, channel, took_ms, args }` at info.
 */
export function createHandWrittenRow(options: HandWrittenRowOptions): CallRow {
  const logger = options.production?.logger ?? null;
  const audit =
    logger === null
      ? (): void => undefined
      : (entry: HandWrittenAuditEntry): void => {
          const fields = {
            tool: entry.tool,
            principal: entry.caller.principal,
            channel: entry.caller.channel,
            took_ms: Math.round(entry.tookMs),
            args: entry.args,
          };
          if (entry.ok) logger.info(fields, 'tool call');
          else logger.warn(fields, 'tool call failed');
        };
  const pipeline = new HandWrittenPipeline(options.budget, audit);
  pipeline.register(BENCH_TOOL_NAME, benchJsonSchema(), [BENCH_SCOPE], () => BENCH_RESULT);
  const caller: HandWrittenCaller = { principal: 'user:42', channel: 'mcp', scopes: [BENCH_SCOPE] };
  const args = { ...BENCH_ARGS };
  return {
    id: options.id,
    label: options.label,
    group: options.production === null ? 'suite' : 'production',
    baseline: options.id,
    check: async () => {
      const linesBefore = options.production?.stream.lines ?? 0;
      const result = await pipeline.call(BENCH_TOOL_NAME, args, caller);
      assertCheck(result.success && result.data === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      if (options.production !== null)
        assertCheck(options.production.stream.lines === linesBefore + 1, 'the call did not write one log line');
      const refused = await pipeline.call(BENCH_TOOL_NAME, { ...INVALID_ARGS }, caller);
      assertCheck(!refused.success, 'invalid arguments were not refused');
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await pipeline.call(BENCH_TOOL_NAME, args, caller);
    },
  };
}
