import { asSchema, tool } from 'ai';
import type { CallRow } from '../../harness/call-row.js';
import { assertCheck } from '../../harness/assert-check.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_TOOL_DESCRIPTION, INVALID_ARGS, benchZodSchema } from '../../fixtures/bench-tool.js';

const EXECUTION_OPTIONS = { toolCallId: 'bench-call', messages: [] };

/**
 * Row 11: the Vercel `ai` package — a `tool()`'s public validate-and-execute path:
 * `asSchema(tool.inputSchema).validate(args)` then `tool.execute(value, options)`. The schema
 * wrapper is built once, outside the loop (the SDK's own loop rebuilds it per call, so this is the
 * generous reading).
 */
export function createVercelAiRow(): CallRow {
  const lookup = tool({
    description: BENCH_TOOL_DESCRIPTION,
    inputSchema: benchZodSchema(),
    execute: () => BENCH_RESULT,
  });
  const schema = asSchema(lookup.inputSchema);
  const execute = lookup.execute!;
  const validate = schema.validate!;
  const args = { ...BENCH_ARGS };
  const call = async (input: unknown): Promise<unknown> => {
    const parsed = await validate(input);
    if (!parsed.success) throw parsed.error;
    return execute(parsed.value, EXECUTION_OPTIONS);
  };
  return {
    id: '11',
    label: 'Vercel ai tool(): validate + execute',
    group: 'peers',
    check: async () => {
      const result = await call(args);
      assertCheck(result === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      const refused = await call({ ...INVALID_ARGS }).then(
        () => false,
        () => true,
      );
      assertCheck(refused, 'invalid arguments were not refused');
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await call(args);
    },
  };
}
