/**
 * One model turn of `registry.toolsFor()` over 10,000 registered tools, warm: the caller's
 * callable tools (authorization of each), routed for a one-line message, fitted and shaped for
 * OpenAI. From benchmarks/: `pnpm exec tsx --conditions=@milpa/source src/tools-for-turn.ts`
 * (prints the figures, writes nothing; `BENCH_QUICK=1` for fewer repeats).
 */
import { ToolContext, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { assertCheck } from './harness/assert-check.js';
import { BENCH_SCOPE } from './fixtures/bench-tool.js';
import { distinctToolOptions } from './fixtures/milpa-setup.js';

const TOOLS = 10_000;
const quick = process.env['BENCH_QUICK'] === '1';

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

async function main(): Promise<void> {
  const registry = new ToolRegistry();
  for (let index = 0; index < TOOLS; index++) {
    const options = distinctToolOptions(index);
    registry.register(defineTool({ ...options, routing: { intents: [`manage ${options.name}`], domains: [`domain${index % 50}`], tags: [], examples: [] } }));
  }
  const context = ToolContext.web('user:bench', [BENCH_SCOPE]);
  const options = { provider: 'openai', model: 'gpt-4o-mini', message: 'Please manage distinct_04242 and anything in domain7 today' } as const;
  const first = await registry.toolsFor(context, options);
  assertCheck(first.names.length === 8, `offered ${first.names.length} tools, expected the model's budget of 8`);
  assertCheck(first.pinned.includes('distinct_04242'), 'the named tool was not pinned');
  const warmup = quick ? 20 : 100;
  for (let turn = 0; turn < warmup; turn++) await registry.toolsFor(context, options);
  const turns = quick ? 50 : 300;
  const samples: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const startedAt = performance.now();
    await registry.toolsFor(context, options);
    samples.push(performance.now() - startedAt);
  }
  samples.sort((left, right) => left - right);
  const median = percentile(samples, 0.5);
  const p95 = percentile(samples, 0.95);
  process.stdout.write(`toolsFor, ${TOOLS} tools, openai / gpt-4o-mini, warm: median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms per turn (target < 5 ms)\n`);
}

await main();
