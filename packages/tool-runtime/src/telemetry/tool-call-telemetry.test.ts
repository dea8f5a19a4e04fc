import { ToolContext, ToolResult, Type, defineTool } from '@milpa/core';
import { context, metrics, trace, type ContextManager, type Meter, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTelemetry } from '../../test/support/in-memory-telemetry.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import type { ToolTelemetryOptions } from './tool-telemetry-options.js';
import { ToolCallTelemetry } from './tool-call-telemetry.js';

function notesRegistry(telemetry: ToolTelemetryOptions | false | undefined, handler: () => unknown = () => ['a note']): ToolRegistry {
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), telemetry });
  registry.register(defineTool({ name: 'list_notes', description: 'List notes', handler }));
  return registry;
}

/** A span whose every method throws. */
const throwingSpan = new Proxy({} as Span, {
  get: () => () => {
    throw new Error('span broke');
  },
});

describe('ToolCallTelemetry', () => {
  let telemetry = new InMemoryTelemetry();
  afterEach(async () => {
    context.disable();
    trace.disable();
    metrics.disable();
    await telemetry.shutdown();
    telemetry = new InMemoryTelemetry();
  });

  describe('metrics', () => {
    it('counts each call once and records its duration in seconds, by tool, outcome and channel', async () => {
      const registry = notesRegistry(telemetry.options);
      await registry.call('list_notes', {});
      await registry.call('list_notes', {});
      await registry.call('missing', {});
      const calls = await telemetry.points('milpa.tool.calls');
      expect(calls).toEqual(
        expect.arrayContaining([
          { attributes: { 'gen_ai.tool.name': 'list_notes', 'milpa.outcome': 'executed', 'milpa.channel': 'cli' }, value: 2 },
          { attributes: { 'milpa.outcome': 'not_found', 'milpa.channel': 'cli', 'error.type': 'TOOL_NOT_FOUND' }, value: 1 },
        ]),
      );
      expect(calls).toHaveLength(2);
      const durations = await telemetry.points('milpa.tool.duration');
      const executed = durations.find((point) => point.attributes['milpa.outcome'] === 'executed')?.value as Histogram;
      expect(executed.count).toBe(2);
      expect(executed.sum).toBeGreaterThanOrEqual(0);
      expect(executed.sum).toBeLessThan(60);
    });
  });

  describe('context propagation', () => {
    it("nests the handler's own spans under the tool span, also after an await", async () => {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      const handlerTracer = telemetry.tracerProvider.getTracer('handler');
      const registry = notesRegistry(telemetry.options, async () => {
        handlerTracer.startSpan('before await').end();
        await new Promise((resolve) => setTimeout(resolve, 1));
        handlerTracer.startSpan('after await').end();
        return 'ok';
      });
      await registry.call('list_notes', {});
      const spans = telemetry.spans();
      const tool = spans.find((span) => span.name === 'execute_tool list_notes');
      expect(spans.map((span) => span.name)).toEqual(['before await', 'after await', 'execute_tool list_notes']);
      for (const child of spans.filter((span) => span !== tool)) {
        expect(child.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
        expect(child.spanContext().traceId).toBe(tool?.spanContext().traceId);
      }
    });

    it("parents the tool span on the caller's active span", async () => {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      const outer = telemetry.tracerProvider.getTracer('agent').startSpan('agent turn');
      await context.with(trace.setSpan(context.active(), outer), () => notesRegistry(telemetry.options).call('list_notes', {}));
      outer.end();
      expect(telemetry.spans()[0]?.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    });

    it('runs the handler once, outside the span context, when the context manager fails', async () => {
      const failing: ContextManager = {
        active: () => context.active(),
        with: () => {
          throw new Error('context manager broke');
        },
        bind: (_context, target) => target,
        enable() {
          return this;
        },
        disable() {
          return this;
        },
      };
      context.setGlobalContextManager(failing);
      const handler = vi.fn(() => 'ok');
      const result = await notesRegistry(telemetry.options, handler).call('list_notes', {});
      expect(result.data).toBe('ok');
      expect(handler).toHaveBeenCalledTimes(1);
    });
  });

  describe('defaults and off', () => {
    it('uses the global tracer and meter when the option is left out', async () => {
      // The meter is taken when the registry is built; the global tracer follows a later registration.
      metrics.setGlobalMeterProvider(telemetry.meterProvider);
      const registry = notesRegistry(undefined);
      trace.setGlobalTracerProvider(telemetry.tracerProvider);
      await registry.call('list_notes', {});
      expect(telemetry.spans().map((span) => [span.name, span.instrumentationScope.name])).toEqual([
        ['execute_tool list_notes', '@milpa/tool-runtime'],
      ]);
      expect((await telemetry.points('milpa.tool.calls')).map((point) => point.value)).toEqual([1]);
    });

    it('records nothing when telemetry is false, even with a global SDK registered', async () => {
      trace.setGlobalTracerProvider(telemetry.tracerProvider);
      metrics.setGlobalMeterProvider(telemetry.meterProvider);
      const result = await notesRegistry(false).call('list_notes', {});
      expect(result.success).toBe(true);
      expect(telemetry.spans()).toHaveLength(0);
      expect(await telemetry.points('milpa.tool.calls')).toHaveLength(0);
    });

    it('starts no span at all from the global API while no SDK is registered, and one once it is', () => {
      const global = ToolCallTelemetry.from(undefined)!;
      expect(global.start('list_notes', new Map())).toBeNull();
      trace.setGlobalTracerProvider(telemetry.tracerProvider);
      expect(global.start('list_notes', new Map())?.isRecording()).toBe(true);
    });

    it("propagates no context for a given tracer's non-recording no-op span", () => {
      const noSdk = new ToolCallTelemetry(trace.getTracer('x'), metrics.getMeter('x'));
      const span = noSdk.start('list_notes', new Map());
      expect(span?.isRecording()).toBe(false);
      expect(noSdk.contextOf(span!)).toBeNull();
    });
  });

  describe('containment', () => {
    it('keeps the call working when the tracer throws', async () => {
      const tracer = {
        startSpan: () => {
          throw new Error('tracer broke');
        },
        startActiveSpan: () => undefined,
      } as unknown as Tracer;
      const result = await notesRegistry({ tracer, meter: telemetry.options.meter }).call('list_notes', {});
      expect(result.data).toEqual(['a note']);
      expect(await telemetry.points('milpa.tool.calls')).toHaveLength(1);
    });

    it('keeps the call working when every span method throws', async () => {
      const tracer = { startSpan: () => throwingSpan, startActiveSpan: () => undefined } as unknown as Tracer;
      const failing = await notesRegistry({ tracer }, () => ToolResult.error('nope')).call('list_notes', {});
      expect(failing.error).toBe('nope');
      expect((await notesRegistry({ tracer }).call('list_notes', {})).data).toEqual(['a note']);
    });

    it('keeps the registry and its calls working when the meter throws', async () => {
      const creating = {
        createCounter: () => {
          throw new Error('meter broke');
        },
      } as unknown as Meter;
      expect((await notesRegistry({ meter: creating }).call('list_notes', {})).success).toBe(true);
      const recording = {
        createCounter: () => ({
          add: () => {
            throw new Error('counter broke');
          },
        }),
        createHistogram: () => ({
          record: () => {
            throw new Error('histogram broke');
          },
        }),
      } as unknown as Meter;
      expect((await notesRegistry({ meter: recording, tracer: telemetry.options.tracer }).call('list_notes', {})).success).toBe(true);
      expect(telemetry.spans()).toHaveLength(1);
    });
  });

  describe('secrets', () => {
    const SECRET = 'pw-otel-63aa';
    const input = Type.Object({ accounts: Type.Array(Type.Object({ password: Type.String() })), note: Type.String() });

    it('scrubs a secret nested in an array from the exception message, stack and type', async () => {
      class LeakyError extends Error {
        override name = `LeakyError(${SECRET})`;
      }
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), telemetry: telemetry.options });
      registry.register(
        defineTool({
          name: 'login',
          description: 'Logs in',
          input,
          handler: (args) => {
            throw new LeakyError(`failed for ${args.accounts[0]?.password}`);
          },
        }),
      );
      await registry.call('login', { accounts: [{ password: SECRET }], note: 'n' });
      const exception = telemetry.spans()[0]?.events.find((event) => event.name === 'gen_ai.execute_tool.exception');
      expect(exception?.attributes?.['exception.message']).toBe('failed for ***REDACTED***');
      expect(String(exception?.attributes?.['exception.stacktrace'])).toContain('***REDACTED***');
      expect(JSON.stringify(telemetry.spans().map((span) => [span.attributes, span.events, span.status]))).not.toContain(SECRET);
    });

    it('never takes a code a handler made up (here an argument) as error.type on spans or metric labels', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), telemetry: telemetry.options });
      registry.register(
        defineTool({
          name: 'check',
          description: 'Checks',
          input,
          handler: (args) => ToolResult.error('no', null, { code: args.note }),
        }),
      );
      await registry.call('check', { accounts: [], note: SECRET });
      const calls = await telemetry.points('milpa.tool.calls');
      expect(calls.map((point) => point.attributes['error.type'])).toEqual(['tool_error']);
      expect(telemetry.spans()[0]?.attributes['error.type']).toBe('tool_error');
      expect(JSON.stringify([calls, await telemetry.points('milpa.tool.duration')])).not.toContain(SECRET);
      expect(JSON.stringify(telemetry.spans().map((span) => [span.attributes, span.events, span.status]))).not.toContain(SECRET);
    });
  });
});
