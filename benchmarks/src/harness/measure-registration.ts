import { silentLogger } from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { InMemoryRateLimiter, ToolRegistry } from '@milpa/tool-runtime';
import { defineFillerTool } from '../fixtures/milpa-setup.js';
import { summarizeSamples, type SampleStats } from './sample-stats.js';

/** Registration cost of many tools: time for all of them and heap retained per tool. */
export interface RegistrationMeasurement {
  /** How many tools each repeat registered. */
  readonly toolCount: number;
  /** Milliseconds to define and register every tool (one fresh registry per repeat). */
  readonly totalMs: SampleStats;
  /** Bytes of heap retained per tool after a full GC (definitions, schemas, handlers and registry entries). */
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
 * Registers `toolCount` tools (each `defineTool()`d with its own schema object and handler) into a
 * fresh, fully wired registry, `repeats` times. Each repeat times the define-and-register loop and
 * then measures the heap retained after GC beyond the empty registry.
 */
export function measureRegistration(toolCount: number, repeats: number): RegistrationMeasurement {
  const totals: number[] = [];
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
    const startedAt = performance.now();
    for (let index = 0; index < toolCount; index++) registry.register(defineFillerTool(index));
    totals.push(performance.now() - startedAt);
    collectGarbage();
    const heapAfter = process.memoryUsage().heapUsed;
    if (!registry.has(defineFillerTool(toolCount - 1).name)) throw new Error('registration lost a tool');
    perTool.push((heapAfter - heapBefore) / toolCount);
  }
  return { toolCount, totalMs: summarizeSamples(totals), heapBytesPerTool: summarizeSamples(perTool) };
}
