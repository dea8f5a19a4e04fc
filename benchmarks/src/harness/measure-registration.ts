import { ToolContext, silentLogger, type AnyToolDefinition } from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { InMemoryRateLimiter, ToolRegistry } from '@milpa/tool-runtime';
import { BENCH_SCOPE } from '../fixtures/bench-tool.js';
import { summarizeSamples, type SampleStats } from './sample-stats.js';

/** Registration cost of many tools: time for all of them and heap retained per tool. */
export interface RegistrationMeasurement {
  /** How many tools each repeat registered. */
  readonly toolCount: number;
  /** Milliseconds of `registry.register(defineTool(options))` for every tool (one fresh registry per repeat). */
  readonly totalMs: SampleStats;
  /** Milliseconds to build the tools' options (TypeBox schemas, handlers): the host's own code, not timed above. */
  readonly optionsMs: SampleStats;
  /** Bytes of heap retained per tool after a full GC: options, schema, definition, handler and registry entry. */
  readonly heapBytesPerTool: SampleStats;
  /** Bytes of heap the host's options alone (schema objects, handlers) hold per tool, before registration: part of `heapBytesPerTool`. */
  readonly optionsBytesPerTool: SampleStats;
}

/** The `defineTool()` options of tool number `index`, and the arguments one valid call to it takes. */
export interface RegistrationFixture<Options extends { readonly name: string }> {
  /** Builds the options of tool `index` (a fresh schema object and handler each time). */
  readonly optionsOf: (index: number) => Options;
  /** `defineTool(options)`, typed for these options. */
  readonly define: (options: Options) => AnyToolDefinition;
  /** Valid arguments for tool `index`, used to check one registered tool really answers. */
  readonly argsOf: (index: number) => Record<string, unknown>;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('Run with --expose-gc (the bench script does) to measure retained heap.');
  // Two passes: the first can leave objects reachable only from finalizers or weak maps.
  gc();
  gc();
}

/**
 * Registers `toolCount` tools (each `defineTool()`d with the options `fixture` builds) into a fresh,
 * fully wired registry, `repeats` times. Each repeat builds the options first, then times the
 * define-and-register loop, then measures the heap retained after GC beyond the empty registry
 * (the options, schemas and handlers included), then calls the last tool once to prove it answers.
 *
 * @throws Error when a registered tool is missing or its call fails.
 */
export async function measureRegistration<Options extends { readonly name: string }>(
  toolCount: number,
  repeats: number,
  fixture: RegistrationFixture<Options>,
): Promise<RegistrationMeasurement> {
  const totals: number[] = [];
  const building: number[] = [];
  const perTool: number[] = [];
  const optionsPerTool: number[] = [];
  const last = toolCount - 1;
  for (let repeat = 0; repeat < repeats; repeat++) {
    const registry = new ToolRegistry({
      logger: silentLogger,
      dispatcher: new EventDispatcher({ logger: silentLogger }),
      rateLimiter: new InMemoryRateLimiter(),
    });
    // The empty registry (its ajv instance, formats, policies) is a fixed cost, not a per-tool one.
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const buildingFrom = performance.now();
    const options = Array.from({ length: toolCount }, (_, index) => fixture.optionsOf(index));
    building.push(performance.now() - buildingFrom);
    collectGarbage();
    optionsPerTool.push((process.memoryUsage().heapUsed - heapBefore) / toolCount);
    const startedAt = performance.now();
    for (let index = 0; index < toolCount; index++) registry.register(fixture.define(options[index]!));
    totals.push(performance.now() - startedAt);
    options.length = 0;
    collectGarbage();
    const heapAfter = process.memoryUsage().heapUsed;
    perTool.push((heapAfter - heapBefore) / toolCount);
    const name = fixture.optionsOf(last).name;
    const result = await registry.call(name, fixture.argsOf(last), ToolContext.mcp('bench-registration', 'user:42', [BENCH_SCOPE]));
    if (!result.success) throw new Error(`registered tool ${name} did not answer: ${JSON.stringify(result)}`);
  }
  return {
    toolCount,
    totalMs: summarizeSamples(totals),
    optionsMs: summarizeSamples(building),
    heapBytesPerTool: summarizeSamples(perTool),
    optionsBytesPerTool: summarizeSamples(optionsPerTool),
  };
}
