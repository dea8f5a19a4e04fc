import { ToolErrorCode, type ToolContext } from '@milpa/core';
import type { ToolRegistry } from '@milpa/tool-runtime';
import type { CallRow, RowGroup } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import type { DiscardStream } from '../fixtures/discard-stream.js';
import { BENCH_ARGS, BENCH_TOOL_NAME, INVALID_ARGS } from '../fixtures/bench-tool.js';

/** What a Milpa row is and what its one correct call must return. */
export interface MilpaRowOptions {
  /** Table id. */
  readonly id: string;
  /** Table label. */
  readonly label: string;
  /** Table section. */
  readonly group: RowGroup;
  /** The hand-written row with the same logging (see `CallRow.baseline`). */
  readonly baseline?: string;
  /** The production logger's stream, when the registry logs to one: the check proves each call writes its audit line. */
  readonly stream?: DiscardStream;
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
    ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
    check: async () => {
      const linesBefore = options.stream?.lines ?? 0;
      const result = await registry.call(BENCH_TOOL_NAME, args, context);
      assertCheck(result.success && result.data === options.expectedData, `unexpected result ${JSON.stringify(result)}`);
      if (options.stream !== undefined) assertCheck(options.stream.lines === linesBefore + 1, 'the call did not write one audit line');
      const refused = await registry.call(BENCH_TOOL_NAME, { ...INVALID_ARGS }, context);
      assertCheck(refused.getCode() === ToolErrorCode.VALIDATION_ERROR, `invalid arguments gave ${JSON.stringify(refused)}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await registry.call(BENCH_TOOL_NAME, args, context);
    },
  };
}
