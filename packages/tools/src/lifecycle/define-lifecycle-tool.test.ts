import { MilpaError, ToolContext, ToolResult, Type, unsupportedCaller, type ToolInvocation } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it, vi } from 'vitest';
import { defineLifecycleTool, type LifecycleToolOptions } from './define-lifecycle-tool.js';
import { failure, success } from './tool-envelope.js';
import { ToolError } from './tool-error.js';

const input = Type.Object({ key: Type.String() }, { additionalProperties: false });
type Options = LifecycleToolOptions<typeof input, string, string>;

function invocationWith(signal: AbortSignal = new AbortController().signal): ToolInvocation {
  return { context: ToolContext.cli(), signal, caller: unsupportedCaller };
}

function lookupTool(overrides: Partial<Options> = {}) {
  return defineLifecycleTool<typeof input, string, string>({
    name: 'lookup',
    description: 'Look a key up',
    input,
    plan: (args) => ({ input: args.key.trim() }),
    perform: (key) => `value of ${key}`,
    complete: (raw, key) => success({ key, value: raw }),
    ...overrides,
  });
}

function registryWith(...tools: ReturnType<typeof lookupTool>[]): ToolRegistry {
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
  for (const tool of tools) registry.register(tool);
  return registry;
}

const recoverable = () => new ToolError('INDEX_UNAVAILABLE', 'The index is unavailable.', { cause: new Error('ECONNRESET') });

describe('defineLifecycleTool', () => {
  describe('as an ordinary tool', () => {
    it('answers through a ToolRegistry with the completed result when every step passes', async () => {
      const registry = registryWith(lookupTool());

      const result = await registry.call('lookup', { key: '  a ' });

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ key: 'a', value: 'value of a' });
      expect(result.meta['warnings']).toEqual([]);
    });

    it('keeps the tool options (scopes, mutating, routing) on the definition', () => {
      const tool = lookupTool({ scopes: ['index:read'], mutating: true, routing: { intents: ['look up'] } });

      expect(tool.name).toBe('lookup');
      expect(tool.scopes).toEqual(['index:read']);
      expect(tool.mutating).toBe(true);
      expect(tool.routing?.intents).toEqual(['look up']);
      expect(tool.inputSchema['additionalProperties']).toBe(false);
    });

    it('wraps plain data returned by complete as a success', async () => {
      const registry = registryWith(lookupTool({ complete: (raw) => ({ raw }) }));

      const result = await registry.call('lookup', { key: 'b' });

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ raw: 'value of b' });
    });
  });

  describe('plan', () => {
    it('finishes early with its result, never calling perform or complete, when it returns { result }', async () => {
      const perform = vi.fn(() => 'x');
      const complete = vi.fn(() => success('x'));
      const registry = registryWith(
        lookupTool({ plan: () => ({ result: failure('EMPTY_KEY', 'key must not be empty') }), perform, complete }),
      );

      const result = await registry.call('lookup', { key: '' });

      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('EMPTY_KEY');
      expect(result.error).toBe('key must not be empty');
      expect(perform).not.toHaveBeenCalled();
      expect(complete).not.toHaveBeenCalled();
    });

    it('is never retried, even for a ToolError with a cause', async () => {
      const plan = vi.fn((): never => {
        throw recoverable();
      });
      const recover = vi.fn(() => 'retry' as const);
      const perform = vi.fn(() => 'x');
      const tool = lookupTool({ plan, recover, perform, maxRecoveryAttempts: 3 });

      const result = await tool.handler({ key: 'a' }, invocationWith());

      expect(plan).toHaveBeenCalledTimes(1);
      expect(recover).not.toHaveBeenCalled();
      expect(perform).not.toHaveBeenCalled();
      expect(result).toBeInstanceOf(ToolResult);
      expect((result as ToolResult).meta['code']).toBe('INDEX_UNAVAILABLE');
    });
  });

  describe('verify', () => {
    it('finishes with its result, never calling complete, when it returns one', async () => {
      const complete = vi.fn(() => success('x'));
      const registry = registryWith(lookupTool({ verify: () => failure('STALE', 'The value is stale.'), complete }));

      const result = await registry.call('lookup', { key: 'a' });

      expect(result.meta['code']).toBe('STALE');
      expect(complete).not.toHaveBeenCalled();
    });

    it('lets the call go on to complete when it returns null or undefined', async () => {
      for (const verdict of [null, undefined]) {
        const complete = vi.fn((raw: string) => success(raw));
        const tool = lookupTool({ verify: () => verdict, complete });

        const result = (await tool.handler({ key: 'a' }, invocationWith())) as ToolResult;

        expect(result.success).toBe(true);
        expect(complete).toHaveBeenCalledTimes(1);
      }
    });
  });

  describe('recover', () => {
    it.each([0, 1, 2, 4])(
      'runs perform exactly maxRecoveryAttempts + 1 times when it always fails and recover retries (%i)',
      async (attempts) => {
        const perform = vi.fn((): string => {
          throw recoverable();
        });
        const recover = vi.fn(() => 'retry' as const);
        const registry = registryWith(lookupTool({ perform, recover, maxRecoveryAttempts: attempts }));

        const result = await registry.call('lookup', { key: 'a' });

        expect(perform).toHaveBeenCalledTimes(attempts + 1);
        expect(recover).toHaveBeenCalledTimes(attempts);
        expect(recover.mock.calls.map((call) => (call as unknown[])[1])).toEqual([...Array(attempts).keys()]);
        expect(result.success).toBe(false);
        expect(result.meta['code']).toBe('INDEX_UNAVAILABLE');
      },
    );

    it('retries once by default', async () => {
      const perform = vi.fn((): string => {
        throw recoverable();
      });
      const tool = lookupTool({ perform, recover: () => 'retry' });

      await tool.handler({ key: 'a' }, invocationWith());

      expect(perform).toHaveBeenCalledTimes(2);
    });

    it('returns the answer of a retry that succeeds', async () => {
      let calls = 0;
      const perform = vi.fn((key: string): string => {
        calls += 1;
        if (calls === 1) throw recoverable();
        return `fresh ${key}`;
      });
      const registry = registryWith(lookupTool({ perform, recover: () => 'retry' }));

      const result = await registry.call('lookup', { key: 'a' });

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ key: 'a', value: 'fresh a' });
      expect(perform).toHaveBeenCalledTimes(2);
    });

    it('finishes with the result recover returns instead of retrying', async () => {
      const perform = vi.fn((): string => {
        throw recoverable();
      });
      const recover = vi.fn((error: ToolError) => success({ cached: true, after: error.code }));
      const registry = registryWith(lookupTool({ perform, recover, maxRecoveryAttempts: 5 }));

      const result = await registry.call('lookup', { key: 'a' });

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ cached: true, after: 'INDEX_UNAVAILABLE' });
      expect(perform).toHaveBeenCalledTimes(1);
    });

    it('is offered recoverable errors thrown by verify and complete too', async () => {
      let verified = 0;
      const verify = vi.fn(() => {
        verified += 1;
        if (verified === 1) throw recoverable();
        return null;
      });
      const recover = vi.fn(() => 'retry' as const);
      const perform = vi.fn((key: string) => key);
      const tool = lookupTool({ perform, verify, recover });

      const result = (await tool.handler({ key: 'a' }, invocationWith())) as ToolResult;

      expect(result.success).toBe(true);
      expect(perform).toHaveBeenCalledTimes(2);
      expect(recover).toHaveBeenCalledTimes(1);
    });

    it('is not offered a ToolError without a cause, which becomes the failure at once', async () => {
      const perform = vi.fn((): string => {
        throw new ToolError('NOT_FOUND', 'No such key.');
      });
      const recover = vi.fn(() => 'retry' as const);
      const registry = registryWith(lookupTool({ perform, recover, maxRecoveryAttempts: 3 }));

      const result = await registry.call('lookup', { key: 'a' });

      expect(perform).toHaveBeenCalledTimes(1);
      expect(recover).not.toHaveBeenCalled();
      expect(result.meta['code']).toBe('NOT_FOUND');
    });

    it('is not offered a plain Error, which the pipeline contains as INTERNAL_ERROR', async () => {
      const perform = vi.fn((): string => {
        throw new Error('disk on fire');
      });
      const recover = vi.fn(() => 'retry' as const);
      const registry = registryWith(lookupTool({ perform, recover, maxRecoveryAttempts: 3 }));

      const result = await registry.call('lookup', { key: 'a' });

      expect(perform).toHaveBeenCalledTimes(1);
      expect(recover).not.toHaveBeenCalled();
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
    });

    it('never retries without a recover step', async () => {
      const perform = vi.fn((): string => {
        throw recoverable();
      });
      const tool = lookupTool({ perform, maxRecoveryAttempts: 3 });

      const result = (await tool.handler({ key: 'a' }, invocationWith())) as ToolResult;

      expect(perform).toHaveBeenCalledTimes(1);
      expect(result.meta['code']).toBe('INDEX_UNAVAILABLE');
    });

    it('does not start a retry once the invocation signal is aborted', async () => {
      const controller = new AbortController();
      const perform = vi.fn((): string => {
        throw recoverable();
      });
      const recover = vi.fn(() => {
        controller.abort(new Error('caller gave up'));
        return 'retry' as const;
      });
      const tool = lookupTool({ perform, recover, maxRecoveryAttempts: 3 });

      await expect(tool.handler({ key: 'a' }, invocationWith(controller.signal))).rejects.toThrow('caller gave up');
      expect(perform).toHaveBeenCalledTimes(1);
      expect(recover).toHaveBeenCalledTimes(1);
    });
  });

  describe('failures', () => {
    it('turns the final ToolError into a failure result with its code, message and details', async () => {
      const tool = lookupTool({
        perform: () => {
          throw new ToolError('QUOTA_EXCEEDED', 'The index quota is used up.', { details: { retry_after_s: 30 } });
        },
      });

      const result = (await tool.handler({ key: 'a' }, invocationWith())) as ToolResult;

      expect(result.success).toBe(false);
      expect(result.error).toBe('The index quota is used up.');
      expect(result.meta['code']).toBe('QUOTA_EXCEEDED');
      expect(result.meta['retry_after_s']).toBe(30);
      expect(result.meta['type']).toBe('error');
    });
  });

  describe('options', () => {
    it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects maxRecoveryAttempts %s', (value) => {
      expect(() => lookupTool({ maxRecoveryAttempts: value })).toThrow(MilpaError);
      expect(() => lookupTool({ maxRecoveryAttempts: value })).toThrow(/maxRecoveryAttempts/);
    });

    it.each(['plan', 'perform', 'complete'] as const)('rejects a missing %s step', (step) => {
      expect(() => lookupTool({ [step]: undefined } as Partial<Options>)).toThrow(new RegExp(`needs a ${step} function`));
    });

    it('rejects options defineTool refuses, such as an invalid name', () => {
      expect(() => lookupTool({ name: 'not a name!' })).toThrow(MilpaError);
    });
  });
});
