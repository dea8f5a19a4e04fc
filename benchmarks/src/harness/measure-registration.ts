import { defineTool, silentLogger } from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { InMemoryRateLimiter, ToolRegistry } from '@milpa/tool-runtime';
import { fillerToolOptions } from '../fixtures/milpa-setup.js';
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
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('Run with --expose-gc (the bench script does) to measure retained heap.');
  // Two passes: the first can leave objects reachable only from finalizers or weak maps.
  gc();
  gc();
}

/**
 * Registers `toolCount` tools (each `defineTool()`d with its own TypeBox schema object and handler)
 * into a fresh, fully wired registry, `repeats` times. Each repeat builds the options first, then
 * times the define-and-register loop, then measures the heap retained after GC beyond the empty
 * registry (the options, schemas and handlers included).
 */
export function measureRegistration(toolCount: number, repeats: number): RegistrationMeasurement {
  const totals: number[] = [];
  const building: number[] = [];
  const perTool: number[] = [];
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
    const options = Array.from({ length: toolCount }, (_, index) => fillerToolOptions(index));
    building.push(performance.now() - buildingFrom);
    const startedAt = performance.now();
    for (let index = 0; index < toolCount; index++) registry.register(defineTool(options[index]!));
    totals.push(performance.now() - startedAt);
    options.length = 0;
    collectGarbage();
    const heapAfter = process.memoryUsage().heapUsed;
    if (!registry.has(fillerToolOptions(toolCount - 1).name)) throw new Error('registration lost a tool');
    perTool.push((heapAfter - heapBefore) / toolCount);
  }
  return {
    toolCount,
    totalMs: summarizeSamples(totals),
    optionsMs: summarizeSamples(building),
    heapBytesPerTool: summarizeSamples(perTool),
  };
}
