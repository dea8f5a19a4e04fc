import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_SCOPE, BENCH_TOOL_NAME, INVALID_ARGS, benchJsonSchema } from '../fixtures/bench-tool.js';
import { HandWrittenPipeline, type HandWrittenCaller } from './hand-written-pipeline.js';

/** Row 2: the hand-written minimal pipeline, with a budget that never trips and a no-op audit. */
export function createHandWrittenRow(budget: number): CallRow {
  const pipeline = new HandWrittenPipeline(budget, () => undefined);
  pipeline.register(BENCH_TOOL_NAME, benchJsonSchema(), [BENCH_SCOPE], () => BENCH_RESULT);
  const caller: HandWrittenCaller = { principal: 'user:42', channel: 'mcp', scopes: [BENCH_SCOPE] };
  const args = { ...BENCH_ARGS };
  return {
    id: '2',
    label: 'hand-written pipeline (~60 lines)',
    group: 'suite',
    check: async () => {
      const result = await pipeline.call(BENCH_TOOL_NAME, args, caller);
      assertCheck(result.success && result.data === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      const refused = await pipeline.call(BENCH_TOOL_NAME, { ...INVALID_ARGS }, caller);
      assertCheck(!refused.success, 'invalid arguments were not refused');
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await pipeline.call(BENCH_TOOL_NAME, args, caller);
    },
  };
}
