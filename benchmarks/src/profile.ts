/**
 * Runs one row alone for a few seconds under `node --cpu-prof`, to find where a call's time goes:
 * a Milpa row (3: audit line to pino, 5: silent audit, 6: cache listener answers) or an adapter row
 * (A0, A0k, A1, A2, A3, A3t, 10p). `pnpm --filter @milpa/benchmarks run profile 3 5` writes a
 * `.cpuprofile` to `$TMPDIR/milpa-bench-profiles` (open it in Chrome DevTools → Performance).
 */
import { InterceptionSlot, silentLogger, type EventListener } from '@milpa/core';
import pino from 'pino';
import { BENCH_RESULT } from './fixtures/bench-tool.js';
import { createMilpaSetup } from './fixtures/milpa-setup.js';
import type { CallRow } from './harness/call-row.js';
import { createAdapterRows } from './rows/adapter-rows.js';
import { createMilpaRow } from './rows/milpa-row.js';

const BUDGET = 1_000_000_000_000;

function setupFor(id: string): ReturnType<typeof createMilpaSetup> {
  if (id === '3') return createMilpaSetup({ logger: pino({ level: 'info' }, { write: (): void => undefined }), budget: BUDGET });
  if (id === '6') {
    const answer: EventListener = (_eventName, payload) => {
      const slot = payload['slot'];
      if (InterceptionSlot.isInstance(slot)) slot.shortCircuit(BENCH_RESULT);
    };
    return createMilpaSetup({ logger: silentLogger, budget: BUDGET, executingListeners: [answer] });
  }
  return createMilpaSetup({ logger: silentLogger, budget: BUDGET });
}

async function rowFor(id: string): Promise<CallRow> {
  if (!id.startsWith('A') && id !== '10p') {
    return createMilpaRow({ id, label: `row ${id}`, group: 'suite', ...setupFor(id), expectedData: BENCH_RESULT });
  }
  const row = (await createAdapterRows(BUDGET)).find((candidate) => candidate.id === id);
  if (row === undefined) throw new Error(`No adapter row ${id}.`);
  return row;
}

async function main(): Promise<void> {
  const id = process.argv[2] ?? '5';
  const seconds = Number(process.argv[3] ?? '5');
  const row = await rowFor(id);
  await row.check();
  const until = performance.now() + seconds * 1000;
  let calls = 0;
  const startedAt = performance.now();
  while (performance.now() < until) {
    await row.batch(10_000);
    calls += 10_000;
  }
  process.stdout.write(`row ${id}: ${calls} calls, ${(((performance.now() - startedAt) * 1000) / calls).toFixed(3)} µs/call\n`);
}

void main();
