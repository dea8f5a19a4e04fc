import { ToolErrorCode, type ToolContext } from '@milpa/core';
import type { ToolRegistry } from '@milpa/tool-runtime';
import type { CallRow, RowGroup } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import { BENCH_ARGS, BENCH_TOOL_NAME, INVALID_ARGS } from '../fixtures/bench-tool.js';

/** What a Milpa row is and what its one correct call must return. */
export interface MilpaRowOptions {
  /** Table id. */
  readonly id: string;
  /** Table label. */
  readonly label: string;
  /** Table section. */
  readonly group: RowGroup;
  /** The registry under test. */
  readonly registry: ToolRegistry;
  /** The caller. */
  readonly context: ToolContext;
  /** The `data` a correct call returns. */
  readonly expectedData: unknown;
}

/**
 * A row timing `registry.call()` of the benchmark tool. Its check also proves the pipeline is really
 * governing: an invalid call must come back as `VALIDATION_ERROR` without running the handler.
 */
export function createMilpaRow(options: MilpaRowOptions): CallRow {
  const { registry, context } = options;
  const args = { ...BENCH_ARGS };
  return {
    id: options.id,
    label: options.label,
    group: options.group,
    check: async () => {
      const result = await registry.call(BENCH_TOOL_NAME, args, context);
      assertCheck(result.success && result.data === options.expectedData, `unexpected result ${JSON.stringify(result)}`);
      const refused = await registry.call(BENCH_TOOL_NAME, { ...INVALID_ARGS }, context);
      assertCheck(refused.getCode() === ToolErrorCode.VALIDATION_ERROR, `invalid arguments gave ${JSON.stringify(refused)}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await registry.call(BENCH_TOOL_NAME, args, context);
    },
  };
}
