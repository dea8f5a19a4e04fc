import { RunContext, invokeFunctionTool, tool } from '@openai/agents';
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

/**
 * Row 10: `@openai/agents` — `invokeFunctionTool()`, the call the agent runner makes to run a
 * function tool from the model's JSON arguments (parse, zod-validate, execute, timeout wrapper).
 */
export function createOpenAiAgentsRow(): CallRow {
  const lookup = tool({
    name: BENCH_TOOL_NAME,
    description: BENCH_TOOL_DESCRIPTION,
    parameters: benchZodSchema(),
    execute: () => BENCH_RESULT,
  });
  const runContext = new RunContext();
  const input = JSON.stringify(BENCH_ARGS);
  return {
    id: '10',
    label: 'OpenAI Agents invokeFunctionTool (JSON args)',
    group: 'peers',
    check: async () => {
      const result: unknown = await invokeFunctionTool({ tool: lookup, runContext, input });
      assertCheck(result === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      const refused: unknown = await invokeFunctionTool({ tool: lookup, runContext, input: JSON.stringify(INVALID_ARGS) }).catch(
        (error: unknown) => error,
      );
      assertCheck(refused !== BENCH_RESULT, 'invalid arguments were not refused');
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await invokeFunctionTool({ tool: lookup, runContext, input });
    },
  };
}
