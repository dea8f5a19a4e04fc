import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import { BENCH_RESULT } from '../fixtures/bench-tool.js';

async function noop(): Promise<string> {
  return BENCH_RESULT;
}

/** Row 1, the floor: `await` of an async function that does nothing. */
export function createFloorRow(): CallRow {
  return {
    id: '1',
    label: 'floor: await async no-op',
    group: 'suite',
    check: async () => {
      assertCheck((await noop()) === BENCH_RESULT, 'the no-op did not return its value');
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await noop();
    },
  };
}
