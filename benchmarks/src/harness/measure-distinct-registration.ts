import { ToolContext, defineTool, silentLogger } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { distinctToolOptions } from '../fixtures/milpa-setup.js';

/** What {@link measureDistinctRegistration} found for one registry. */
export interface DistinctRegistrationMeasurement {
  /** How many tools were registered, each with a schema no other tool shares. */
  readonly toolCount: number;
  /** Milliseconds of the `registry.register(defineTool(options))` loop over every tool. */
  readonly registerMs: number;
  /** Bytes of heap the registry retains per tool after a full GC (definition and registry entry; the host's options excluded). */
  readonly heapBytesPerTool: number;
  /** Bytes of heap retained per tool after a full GC, the host's options (TypeBox schema, handler) included. */
  readonly heapBytesPerToolWithOptions: number;
  /** Milliseconds of the first call of `sampledCalls` distinct tools (each compiles its validator). */
  readonly firstCallsMs: number;
  /** Milliseconds of a second call of the same tools (validators already compiled). */
  readonly secondCallsMs: number;
  /** How many tools were called twice for the first-call figures. */
  readonly sampledCalls: number;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('Run with --expose-gc to measure retained heap.');
  gc();
  gc();
}

/**
 * Registers `toolCount` tools with distinct schemas into a fresh registry and reports the time of
 * the registration loop and the heap retained per tool; then calls `sampledCalls` of them twice,
 * to show what moved from registration to the first call. Needs `--expose-gc`.
 *
 * @example
 * const measured = measureDistinctRegistration(10_000);
 * console.log(measured.registerMs, measured.heapBytesPerTool);
 */
export async function measureDistinctRegistration(toolCount = 10_000, sampledCalls = 100): Promise<DistinctRegistrationMeasurement> {
  const registry = new ToolRegistry({ logger: silentLogger, defaultContext: () => ToolContext.cli() });
  // A first registration pays the one-off costs (the meta-schema, formats) outside the loop.
  registry.register(defineTool({ ...distinctToolOptions(-1), name: 'warm_up' }));
  collectGarbage();
  const heapEmpty = process.memoryUsage().heapUsed;
  const options = Array.from({ length: toolCount }, (_, index) => distinctToolOptions(index));
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const startedAt = performance.now();
  for (let index = 0; index < toolCount; index++) registry.register(defineTool(options[index]!));
  const registerMs = performance.now() - startedAt;
  collectGarbage();
  const heapAfter = process.memoryUsage().heapUsed;
  const heapBytesPerTool = (heapAfter - heapBefore) / toolCount;
  const heapBytesPerToolWithOptions = (heapAfter - heapEmpty) / toolCount;
  options.length = 0;

  const sampled = Math.min(sampledCalls, toolCount);
  const callAll = async (): Promise<number> => {
    const from = performance.now();
    for (let index = 0; index < sampled; index++) {
      const result = await registry.call(`distinct_${String(index).padStart(5, '0')}`, { [`title_${index}`]: 'x' });
      if (!result.success) throw new Error(`call ${index} failed: ${result.error ?? ''}`);
    }
    return performance.now() - from;
  };
  const firstCallsMs = await callAll();
  const secondCallsMs = await callAll();
  return { toolCount, registerMs, heapBytesPerTool, heapBytesPerToolWithOptions, firstCallsMs, secondCallsMs, sampledCalls: sampled };
}

const isMain = import.meta.url === `file://${process.argv[1] ?? ''}`;
if (isMain) {
  const toolCount = Number(process.argv[2] ?? 10_000);
  const measured = await measureDistinctRegistration(toolCount);
  console.log(
    `${measured.toolCount} tools with distinct schemas: register ${measured.registerMs.toFixed(0)} ms ` +
      `(${((measured.registerMs * 1000) / measured.toolCount).toFixed(1)} µs/tool), ` +
      `${measured.heapBytesPerTool.toFixed(0)} B retained/tool by the registry ` +
      `(${measured.heapBytesPerToolWithOptions.toFixed(0)} B with the host's options); ` +
      `first call of ${measured.sampledCalls}: ${measured.firstCallsMs.toFixed(1)} ms, second: ${measured.secondCallsMs.toFixed(1)} ms`,
  );
}
