import { EventDispatcher } from '@milpa/events';
import { ToolResult, Type, defineTool, isToolErrorCode, type LogContext, type Logger, ToolContext } from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemoryRateLimiter } from '../../src/rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { hostileArgs, hostileContext, hostileToolName } from './hostile-values.js';
import { quietLogger, settleWithin } from './settle-within.js';

/** Counts log lines and keeps the first audit record that would not serialize. */
class SerializingLogger implements Logger {
  lines = 0;
  unserializable: string | null = null;
  debug(context: LogContext, message: string): void {
    this.#write(context, message);
  }
  info(context: LogContext, message: string): void {
    this.#write(context, message);
  }
  warn(context: LogContext, message: string): void {
    this.#write(context, message);
  }
  error(context: LogContext, message: string): void {
    this.#write(context, message);
  }
  #write(context: LogContext, message: string): void {
    this.lines += 1;
    if (typeof message !== 'string') this.unserializable ??= `non-string message: ${typeof message}`;
    if (context['audit'] === undefined) return;
    try {
      JSON.stringify(context['audit']);
    } catch (error) {
      this.unserializable ??= `${message.slice(0, 80)}: ${(error as Error).message}`;
    }
  }
}

const TOOL_NAMES = ['echo', 'open', 'strict', 'mutate', 'confirm', 'scoped', 'thrower', 'odd_thrower', 'stall'] as const;

function hostileRegistry(logger: Logger): ToolRegistry {
  const registry = new ToolRegistry({
    defaultContext: () => ToolContext.cli(),
    logger,
    dispatcher: new EventDispatcher({ logger: quietLogger }),
    rateLimiter: new InMemoryRateLimiter(),
    // The budget is not under test here; a generous one keeps every call reaching the later stages.
    rateLimit: { maxTokens: 10_000_000 },
  });
  const open = Type.Object({}, { additionalProperties: true });
  registry.register(defineTool({ name: 'echo', description: 'No schema at all', handler: (args) => ({ keys: Object.keys(args).length }) }));
  registry.register(defineTool({ name: 'open', description: 'Any object', input: open, handler: (args) => Object.keys(args).length }));
  registry.register(
    defineTool({
      name: 'strict',
      description: 'A strict schema with a clamp',
      input: Type.Object(
        { name: Type.String({ maxLength: 50 }), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
        { additionalProperties: false },
      ),
      clamps: { page: [1, 10] },
      handler: ({ name }) => name.length,
    }),
  );
  registry.register(defineTool({ name: 'mutate', description: 'Mutating', mutating: true, input: open, handler: () => 'done' }));
  registry.register(
    defineTool({ name: 'confirm', description: 'Confirmed', requiresConfirmation: true, input: open, handler: () => 'ok' }),
  );
  registry.register(defineTool({ name: 'scoped', description: 'Scoped', scopes: ['admin'], input: open, handler: () => 'admin' }));
  registry.register(
    defineTool({
      name: 'thrower',
      description: 'Throws an Error quoting its argument names',
      input: open,
      handler: (args) => {
        throw new Error(`cannot handle ${Object.keys(args).join(',')}`);
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'odd_thrower',
      description: 'Throws a value whose message and toString both throw',
      input: open,
      handler: () => {
        // Hostile on purpose.
        throw {
          get message(): string {
            throw new Error('unreadable message');
          },
          toString(): string {
            throw new Error('unprintable');
          },
        };
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'stall',
      description: 'Never settles; the hard timeout must answer',
      input: open,
      timeoutMs: 5,
      hardTimeout: true,
      handler: () => new Promise<never>(() => {}),
    }),
  );
  return registry;
}

describe('ToolRegistry', () => {
  describe('call (property: hostile input)', () => {
    it('resolves to a serializable ToolResult with a ToolErrorCode and ' +
      'leaves Object.prototype untouched for any name, args and context', async () => {
      const logger = new SerializingLogger();
      const registry = hostileRegistry(logger);
      const prototypeKeys = Reflect.ownKeys(Object.prototype).map(String).sort();
      const codes = new Set<string>();
      await fc.assert(
        fc.asyncProperty(hostileToolName(TOOL_NAMES), hostileArgs, hostileContext, async (name, args, context) => {
          const result = await settleWithin(registry.call(name as string, args, context as ToolContext | undefined), 5_000);
          expect(ToolResult.isToolResult(result)).toBe(true);
          const code = result.meta['code'];
          if (code !== undefined) {
            expect(isToolErrorCode(code), `meta.code ${String(code)}`).toBe(true);
            codes.add(code as string);
          }
          expect(typeof result.success).toBe('boolean');
          expect(() => JSON.stringify(result)).not.toThrow();
          expect(Reflect.ownKeys(Object.prototype).map(String).sort()).toEqual(prototypeKeys);
          expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
          expect(logger.unserializable).toBeNull();
        }),
        { numRuns: 1_500 },
      );
      // The generators must reach the interesting outcomes, or the property says little.
      for (const expected of ['TOOL_NOT_FOUND', 'VALIDATION_ERROR', 'FORBIDDEN', 'INTERNAL_ERROR', 'TIMEOUT'])
        expect(codes).toContain(expected);
      expect(logger.lines).toBeGreaterThan(0);
    }, 60_000);
  });
});
