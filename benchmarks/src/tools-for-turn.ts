/**
 * One model turn of `registry.toolsFor()` over 10,000 registered tools, warm: the caller's
 * callable tools, routed for a one-line message, fitted and shaped for OpenAI. In the suite as row
 * `F10000` (`createToolsForRow()`); run alone from benchmarks/ it prints ms per turn:
 * `pnpm exec tsx --conditions=@milpa/source src/tools-for-turn.ts` (`BENCH_QUICK=1`: fewer turns).
 */
import { pathToFileURL } from 'node:url';
import { ToolContext, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { assertCheck } from './harness/assert-check.js';
import type { CallRow } from './harness/call-row.js';
import { BENCH_SCOPE } from './fixtures/bench-tool.js';
import { distinctToolOptions } from './fixtures/milpa-setup.js';

const TOOLS = 10_000;
const MESSAGE = 'Please manage distinct_04242 and anything in domain7 today';

/** A registry of `count` tools, each with a schema and routing hints of its own. */
function createRegistry(count: number): ToolRegistry {
  const registry = new ToolRegistry();
  for (let index = 0; index < count; index++) {
    const options = distinctToolOptions(index);
    registry.register(
      defineTool({
        ...options,
        routing: { intents: [`manage ${options.name}`], domains: [`domain${index % 50}`], tags: [], examples: [] },
      }),
    );
  }
  return registry;
}

/** Row `F10000`: one `toolsFor` turn per call (openai, gpt-4o-mini: budget 8), warm. */
export function createToolsForRow(): CallRow {
  const registry = createRegistry(TOOLS);
  const context = ToolContext.web('user:bench', [BENCH_SCOPE]);
  const options = { provider: 'openai', model: 'gpt-4o-mini', message: MESSAGE } as const;
  return {
    id: `F${TOOLS}`,
    label: `toolsFor, ${TOOLS.toLocaleString('en-US')} tools, one turn (openai)`,
    group: 'tool-count',
    check: async () => {
      const turn = await registry.toolsFor(context, options);
      assertCheck(turn.names.length === 8, `offered ${turn.names.length} tools, expected the model's budget of 8`);
      assertCheck(turn.pinned.includes('distinct_04242'), 'the named tool was not pinned');
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await registry.toolsFor(context, options);
    },
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

async function main(): Promise<void> {
  const quick = process.env['BENCH_QUICK'] === '1';
  const row = createToolsForRow();
  await row.check();
  await row.batch(quick ? 20 : 100);
  const samples: number[] = [];
  for (let turn = 0; turn < (quick ? 50 : 300); turn++) {
    const startedAt = performance.now();
    await row.batch(1);
    samples.push(performance.now() - startedAt);
  }
  samples.sort((left, right) => left - right);
  process.stdout.write(
    `${row.label}, warm: median ${percentile(samples, 0.5).toFixed(2)} ms, ` +
      `p95 ${percentile(samples, 0.95).toFixed(2)} ms per turn (target < 5 ms)\n`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
