/**
 * The provider-shape listing of 10,000 registered tools, once warm: what a host pays per model turn
 * to send every tool in a provider's shape. Listed in the suite by `createProviderShapesRows()`; run
 * alone, it prints µs per turn:
 * `pnpm --filter @milpa/benchmarks exec tsx --conditions=@milpa/source src/rows/provider-shapes-row.ts`.
 */
import { pathToFileURL } from 'node:url';
import { defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { ProviderToolShapes, type OpenAiTool, type ProviderToolSource } from '@milpa/tool-runtime/routing';
import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import { measureRows } from '../harness/measure-rows.js';
import { distinctToolOptions } from '../fixtures/milpa-setup.js';

const TOOLS = 10_000;

/** A registry of `count` tools, each with a schema of its own (see `distinctToolOptions`). */
function createRegistry(count: number): ToolRegistry {
  const registry = new ToolRegistry();
  for (let index = 0; index < count; index++) registry.register(defineTool(distinctToolOptions(index)));
  return registry;
}

function checkListing(tools: readonly OpenAiTool[], sources: readonly ProviderToolSource[]): void {
  assertCheck(tools.length === sources.length, `listed ${tools.length} tools, expected ${sources.length}`);
  const last = tools[tools.length - 1];
  const source = sources[sources.length - 1];
  assertCheck(last?.type === 'function' && last.function.name === source?.name, 'the last tool is not in the OpenAI shape');
  assertCheck(typeof last.function.parameters['properties'] === 'object', 'the parameters have no properties object');
}

/**
 * Two rows, one model turn per call, `openai` shape, cache warmed by the check:
 * `P10000` lists the registry's definitions (stable objects, so every tool is a cache hit);
 * `P10000s` lists fresh `getToolSummaries()` objects each turn (each tool is shaped again around
 * its already-fixed schema), the cost of a host that lists summaries instead.
 */
export function createProviderShapesRows(): CallRow[] {
  const registry = createRegistry(TOOLS);
  const definitions = new ProviderToolShapes();
  const summaries = new ProviderToolShapes();
  let sink = 0;
  return [
    {
      id: `P${TOOLS}`,
      label: `${TOOLS.toLocaleString('en-US')} tools in provider shape, warm (per turn)`,
      group: 'tool-count',
      check: async () => {
        const sources = registry.getToolDefinitions();
        const first = definitions.list(sources, 'openai');
        checkListing(first, sources);
        const second = definitions.list(registry.getToolDefinitions(), 'openai');
        assertCheck(
          second.every((tool, index) => tool === first[index]),
          'a warm listing shaped a tool again',
        );
      },
      batch: async (n) => {
        for (let turn = 0; turn < n; turn++) sink += definitions.list(registry.getToolDefinitions(), 'openai').length;
        assertCheck(sink > 0, 'nothing was listed');
      },
    },
    {
      id: `P${TOOLS}s`,
      label: `${TOOLS.toLocaleString('en-US')} fresh summaries in provider shape (per turn)`,
      group: 'tool-count',
      check: async () => {
        const sources = registry.getToolSummaries();
        checkListing(summaries.list(sources, 'openai'), sources);
      },
      batch: async (n) => {
        for (let turn = 0; turn < n; turn++) sink += summaries.list(registry.getToolSummaries(), 'openai').length;
        assertCheck(sink > 0, 'nothing was listed');
      },
    },
  ];
}

async function main(): Promise<void> {
  const measurements = await measureRows(createProviderShapesRows(), { batchMs: 60, warmupMs: 500, repeats: 21 }, (message) =>
    process.stderr.write(`[bench] ${message}\n`),
  );
  for (const { row, stats } of measurements) {
    process.stdout.write(
      `${row.id.padEnd(7)} ${row.label.padEnd(52)} ${(stats.median / 1000).toFixed(1).padStart(9)} µs per turn  ` +
        `±${stats.spreadPercent.toFixed(0)} %\n`,
    );
  }
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
