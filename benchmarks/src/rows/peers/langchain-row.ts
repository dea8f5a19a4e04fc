import { tool } from '@langchain/core/tools';
import type { CallRow } from '../../harness/call-row.js';
import { assertCheck } from '../../harness/assert-check.js';
import {
  BENCH_ARGS,
  BENCH_RESULT,
  BENCH_TOOL_DESCRIPTION,
  BENCH_TOOL_NAME,
  INVALID_ARGS,
  benchZodSchema,
} from '../../fixtures/bench-tool.js';

/** Row 9: `@langchain/core` — `tool(fn, { schema }).invoke(args)` with a zod strict object schema. */
export function createLangChainRow(): CallRow {
  const lookup = tool(() => BENCH_RESULT, { name: BENCH_TOOL_NAME, description: BENCH_TOOL_DESCRIPTION, schema: benchZodSchema() });
  const args = { ...BENCH_ARGS };
  return {
    id: '9',
    label: 'LangChain tool().invoke(args)',
    group: 'peers',
    check: async () => {
      const result: unknown = await lookup.invoke(args);
      assertCheck(result === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      let refused = false;
      try {
        await lookup.invoke({ ...INVALID_ARGS } as typeof args);
      } catch {
        refused = true;
      }
      assertCheck(refused, 'invalid arguments were not refused');
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await lookup.invoke(args);
    },
  };
}
