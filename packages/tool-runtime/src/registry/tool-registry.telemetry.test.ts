import { EventDispatcher } from '@milpa/events';
import { type InterceptionSlot, RateLimitResult, ToolContext, ToolResult, Type, defineTool, type RateLimiter } from '@milpa/core';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTelemetry } from '../../test/support/in-memory-telemetry.js';
import type { InvocationOutcome as CallOutcome } from '@milpa/core';
import { TELEMETRY_NAMES } from '../telemetry/telemetry-names.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';
import { ToolRegistry } from './tool-registry.js';

const SECRET = 'hunter2-secret-value';
const ARGUMENT = 'argument-value-7f3a';

const denyingLimiter: RateLimiter = { consume: () => RateLimitResult.denied('spent', 9), getUsage: () => 0, reset: () => undefined };

function vetoing(answer?: ToolResult): EventDispatcher {
  const dispatcher = new EventDispatcher();
  dispatcher.subscribe('tool.executing', (_name, payload) => {
    const slot = payload['slot'] as InterceptionSlot;
    if (answer === undefined) slot.stop();
    else slot.shortCircuit(answer);
  });
  return dispatcher;
}

function registryWith(telemetry: InMemoryTelemetry, options: ToolRegistryOptions = {}): ToolRegistry {
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), ...options, telemetry: telemetry.options });
  const note = Type.Object({ title: Type.String(), password: Type.Optional(Type.String()) });
  registry.register(defineTool({ name: 'save_note', description: 'Save a note', input: note, handler: ({ title }) => ({ saved: title }) }));
  registry.register(defineTool({ name: 'scoped', description: 'Needs a scope', scopes: ['notes:admin'], handler: () => 1 }));
  registry.register(defineTool({ name: 'confirmed', description: 'Asks first', requiresConfirmation: true, handler: () => 'done' }));
  registry.register(
    defineTool({ name: 'refusing', description: 'Returns an error result', handler: () => ToolResult.error('no such note') }),
  );
  registry.register(
    defineTool({
      name: 'boom',
      description: 'Throws',
      input: note,
      handler: ({ password }) => {
        throw new TypeError(`login failed for ${password ?? ''}`);
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'hung',
      description: 'Never answers',
      timeoutMs: 200,
      hardTimeout: true,
      handler: () => new Promise(() => undefined),
    }),
  );
  return registry;
}

interface TerminalPath {
  readonly path: string;
  readonly outcome: CallOutcome;
  readonly errorType: string | null;
  readonly tool: string;
  readonly options?: ToolRegistryOptions;
  readonly args?: unknown;
  readonly context?: ToolContext;
  readonly signal?: AbortSignal;
  readonly confirmToken?: string;
}

const PATHS: readonly TerminalPath[] = [
  { path: 'unknown tool', tool: 'no_such_tool', outcome: 'not_found', errorType: 'TOOL_NOT_FOUND' },
  {
    path: 'validation failure',
    tool: 'save_note',
    args: { title: 42, password: SECRET },
    outcome: 'validation_failed',
    errorType: 'VALIDATION_ERROR',
  },
  { path: 'denial', tool: 'scoped', context: ToolContext.web('user:1', ['notes:read']), outcome: 'auth_denied', errorType: 'FORBIDDEN' },
  { path: 'rate limit', tool: 'save_note', options: { rateLimiter: denyingLimiter }, outcome: 'rate_limited', errorType: 'RATE_LIMITED' },
  { path: 'plan mode', tool: 'save_note', context: ToolContext.cli().asPlan(), outcome: 'plan', errorType: null },
  { path: 'confirmation request', tool: 'confirmed', args: {}, outcome: 'confirmation_requested', errorType: null },
  { path: 'invalid token', tool: 'confirmed', args: {}, confirmToken: 'forged', outcome: 'invalid_token', errorType: 'VALIDATION_ERROR' },
  { path: 'veto', tool: 'save_note', options: { dispatcher: vetoing() }, outcome: 'vetoed', errorType: 'vetoed' },
  {
    path: 'cache hit',
    tool: 'save_note',
    options: { dispatcher: vetoing(ToolResult.success('cached')) },
    outcome: 'executed',
    errorType: null,
  },
  { path: 'success', tool: 'save_note', outcome: 'executed', errorType: null },
  { path: 'error result', tool: 'refusing', args: {}, outcome: 'executed', errorType: 'tool_error' },
  { path: 'handler throw', tool: 'boom', outcome: 'failed', errorType: 'INTERNAL_ERROR' },
  { path: 'caller abort', tool: 'save_note', signal: AbortSignal.abort('gone'), outcome: 'aborted', errorType: 'TIMEOUT' },
  {
    path: 'host-stage refusal',
    tool: 'save_note',
    options: {
      stages: [
        {
          before: 'rate_limit',
          stage: { name: 'tenant', description: 'refuses all', check: () => ToolResult.failure('FORBIDDEN', 'Not yours') },
        },
      ],
    },
    outcome: 'refused',
    errorType: 'FORBIDDEN',
  },
  {
    path: 'failing collaborator',
    tool: 'save_note',
    options: {
      rateLimiter: { consume: () => Promise.reject(new Error(`limiter down for ${ARGUMENT}`)), getUsage: () => 0, reset: () => undefined },
    },
    outcome: 'internal_error',
    errorType: 'STORE_UNAVAILABLE',
  },
];

const REFUSED: ReadonlySet<CallOutcome> = new Set([
  'not_found',
  'validation_failed',
  'auth_denied',
  'rate_limited',
  'invalid_token',
  'vetoed',
  'aborted',
  'refused',
  'internal_error',
]);

/** Every string an attribute or event of `span` carries. */
function recordedText(span: ReadableSpan): string {
  return JSON.stringify([span.name, span.attributes, span.events.map((event) => [event.name, event.attributes]), span.status]);
}

describe('ToolRegistry', () => {
  describe('call: telemetry', () => {
    let telemetry = new InMemoryTelemetry();
    afterEach(async () => {
      vi.useRealTimers();
      await telemetry.shutdown();
      telemetry = new InMemoryTelemetry();
    });

    it.each(PATHS)(
      'ends exactly one span with the outcome when the call ends by $path',
      async ({ tool, outcome, errorType, options, args, context, signal, confirmToken }) => {
        const registry = registryWith(telemetry, options);
        const callContext = context ?? new ToolContext({ channel: 'web', principal: 'user:1', scopes: ['*'], requestId: 'req-1' });
        const result = await registry.call(
          tool,
          args ?? { title: ARGUMENT, password: SECRET },
          callContext,
          signal === undefined ? (confirmToken === undefined ? undefined : { confirmToken }) : { signal },
        );

        const spans = telemetry.spans();
        expect(spans).toHaveLength(1);
        const span = spans[0]!;
        expect(span.name).toBe(outcome === 'not_found' ? 'execute_tool' : `execute_tool ${tool}`);
        expect(span.kind).toBe(SpanKind.INTERNAL);
        expect(span.attributes).toMatchObject({
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': tool,
          'gen_ai.tool.call.id': callContext.requestId,
          'milpa.channel': callContext.channel,
          'milpa.outcome': outcome,
          'milpa.cache.hit': outcome === 'executed' && result.data === 'cached',
        });
        if (outcome !== 'not_found')
          expect(span.attributes).toMatchObject({
            'gen_ai.tool.type': 'function',
            'gen_ai.tool.description': registry.getDefinition(tool)?.description,
          });
        if (errorType === null) {
          expect(span.status.code).toBe(SpanStatusCode.UNSET);
          expect(span.attributes['error.type']).toBeUndefined();
        } else {
          expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: errorType });
          expect(span.attributes['error.type']).toBe(errorType);
        }
        const refusals = span.events.filter((event) => event.name === TELEMETRY_NAMES.events.refused);
        expect(refusals.map((event) => event.attributes)).toEqual(
          REFUSED.has(outcome) ? [{ 'error.type': errorType, 'milpa.outcome': outcome }] : [],
        );
        expect(recordedText(span)).not.toContain(SECRET);
        expect(recordedText(span)).not.toContain(ARGUMENT);
      },
    );

    it('ends the span with TIMEOUT when a hard-timeout tool reaches its deadline', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const pending = registryWith(telemetry).call('hung', {});
      await vi.advanceTimersByTimeAsync(200);
      expect((await pending).meta['code']).toBe('TIMEOUT');
      const spans = telemetry.spans();
      expect(spans).toHaveLength(1);
      expect(spans[0]?.attributes).toMatchObject({ 'milpa.outcome': 'timeout', 'error.type': 'TIMEOUT' });
      expect(spans[0]?.status.code).toBe(SpanStatusCode.ERROR);
    });

    it('records the exception of a throwing handler with its secrets scrubbed and no arguments', async () => {
      await registryWith(telemetry).call('boom', { title: ARGUMENT, password: SECRET });
      const span = telemetry.spans()[0]!;
      const exception = span.events.find((event) => event.name === TELEMETRY_NAMES.events.exception);
      expect(exception?.attributes).toMatchObject({
        'exception.type': 'TypeError',
        'exception.message': expect.stringContaining('login failed for'),
      });
      expect(exception?.attributes?.['exception.stacktrace']).toEqual(expect.stringContaining('TypeError'));
      expect(recordedText(span)).not.toContain(SECRET);
      expect(recordedText(span)).not.toContain(ARGUMENT);
    });

    it('records a call refused for want of a context, without a call id', async () => {
      const registry = new ToolRegistry({ telemetry: telemetry.options });
      registry.register(defineTool({ name: 'save_note', description: 'Save a note', handler: () => 1 }));
      expect((await registry.call('save_note', {})).meta['code']).toBe('VALIDATION_ERROR');
      const spans = telemetry.spans();
      expect(spans).toHaveLength(1);
      expect(spans[0]?.attributes).toMatchObject({ 'milpa.outcome': 'validation_failed', 'error.type': 'VALIDATION_ERROR' });
      expect(spans[0]?.attributes['gen_ai.tool.call.id']).toBeUndefined();
    });

    it('ends the span after the audit exit has written its record', async () => {
      const order: string[] = [];
      const logger = {
        info: () => order.push(`audit, spans ended: ${telemetry.spans().length}`),
        warn: () => undefined,
        error: () => undefined,
        debug: () => undefined,
      };
      await registryWith(telemetry, { logger }).call('save_note', { title: 't' });
      expect(order).toEqual(['audit, spans ended: 0']);
      expect(telemetry.spans()).toHaveLength(1);
    });

    it('bounds the name of an unknown tool taken from the caller', async () => {
      await registryWith(telemetry).call('x'.repeat(10_000), {});
      expect(String(telemetry.spans()[0]?.attributes['gen_ai.tool.name'])).toHaveLength(128);
    });
  });
});
