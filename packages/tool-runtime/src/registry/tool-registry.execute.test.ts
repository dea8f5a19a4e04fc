import { ToolContext, ToolResult, Type, defineTool, unsupportedCaller, type ToolCaller, type ToolInvocation } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('call: execute', () => {
    it('calls the handler with the args (no _ctx key) and { context, signal, caller }', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      let received: { args: unknown; invocation: ToolInvocation } | undefined;
      registry.register(
        defineTool({
          name: 'spy',
          description: 'd',
          input: Type.Object({ a: Type.Integer() }),
          handler: (args, invocation) => {
            received = { args, invocation };
            return 'ok';
          },
        }),
      );
      const context = ToolContext.telegram(7, 'user:7');
      await registry.call('spy', { a: 1 }, context);
      expect(received?.args).toEqual({ a: 1 });
      expect(Object.keys(received?.args as object)).not.toContain('_ctx');
      expect(received?.invocation.context).toBe(context);
      expect(received?.invocation.signal).toBeInstanceOf(AbortSignal);
      expect(received?.invocation.signal.aborted).toBe(false);
      expect(received?.invocation.caller).toBe(unsupportedCaller);
    });

    it('passes the caller given in the call options', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const caller: ToolCaller = { ...unsupportedCaller, capabilities: { ...unsupportedCaller.capabilities, progress: true } };
      registry.register(defineTool({ name: 'c', description: 'd', handler: (_args, { caller: given }) => given.capabilities.progress }));
      expect((await registry.call('c', {}, undefined, { caller })).data).toBe(true);
    });

    it('wraps a bare return value in ToolResult.success with standard meta', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'add',
          description: 'd',
          input: Type.Object({ a: Type.Number(), b: Type.Number() }),
          handler: ({ a, b }) => a + b,
        }),
      );
      const result = await registry.call('add', { a: 5, b: 3 });
      expect(result).toBeInstanceOf(ToolResult);
      expect(result.success).toBe(true);
      expect(result.data).toBe(8);
      expect(Object.keys(result.meta)).toEqual(['tool', 'took_ms', 'request_id', 'channel', 'principal']);
    });

    it("keeps a returned ToolResult's fields and merges standard meta under its own meta", async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'own',
          description: 'd',
          handler: () => ToolResult.success({ id: 1 }, 'Created', { tool: 'tool-says', custom: 'meta' }),
        }),
      );
      const result = await registry.call('own', {}, ToolContext.cli('req-own'));
      expect(result.data).toEqual({ id: 1 });
      expect(result.message).toBe('Created');
      expect(result.meta).toMatchObject({ tool: 'tool-says', custom: 'meta', request_id: 'req-own', channel: 'cli', principal: 'cli' });
      expect(typeof result.meta['took_ms']).toBe('number');
    });

    it('returns a tool-returned error as is, emits tool.executed and audits its code', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(defineTool({ name: 'find', description: 'd', handler: () => ToolResult.failure('NOT_FOUND', 'No note 7') }));
      registry.register(defineTool({ name: 'legacy', description: 'd', handler: () => ToolResult.error('VALIDATION_ERROR') }));
      const found = await registry.call('find');
      expect(found).toMatchObject({ success: false, error: 'No note 7' });
      expect(found.meta['code']).toBe('NOT_FOUND');
      await registry.call('legacy');
      expect(logger.messages('warn').some((line) => line.includes('| find |') && line.includes('ERROR:NOT_FOUND'))).toBe(true);
      expect(logger.messages('warn').some((line) => line.includes('| legacy |') && line.includes('ERROR:VALIDATION_ERROR'))).toBe(true);
    });

    it('contains an Error as INTERNAL_ERROR with its message verbatim and logs it', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new RangeError('Something went wrong');
          },
        }),
      );
      const result = await registry.call('boom');
      expect(result).toMatchObject({ success: false, error: 'Something went wrong' });
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(logger.messages('error')).toContain('[ToolRegistry] boom threw exception: Something went wrong');
      expect(logger.messages('warn').some((line) => line.includes('| boom |') && line.includes('ERROR:EXCEPTION'))).toBe(true);
    });

    it.each([
      ['a string', 'plain failure', 'plain failure'],
      ['undefined', undefined, 'undefined'],
      ['an object', { reason: 'x' }, '[object Object]'],
      ['a symbol', Symbol('s'), 'Symbol(s)'],
    ])('contains a thrown non-Error value (%s)', async (_label, thrown, message) => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'weird',
          description: 'd',
          handler: () => {
            throw thrown;
          },
        }),
      );
      const result = await registry.call('weird');
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toBe(message);
    });

    it('contains an async rejection and an object whose toString throws', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const hostile = {
        toString: () => {
          throw new Error('no');
        },
      };
      registry.register(
        defineTool({
          name: 'rejects',
          description: 'd',
          handler: async () => {
            throw new Error('async bad');
          },
        }),
      );
      registry.register(
        defineTool({
          name: 'hostile',
          description: 'd',
          handler: () => {
            throw hostile;
          },
        }),
      );
      expect((await registry.call('rejects')).error).toBe('async bad');
      expect((await registry.call('hostile')).error).toBe('Unknown error');
    });

    it('hides exception detail from the caller but logs it when exposeErrorMessages is false', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, exposeErrorMessages: false });
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new Error('db at 10.0.0.7 refused');
          },
        }),
      );
      const result = await registry.call('boom', {}, ToolContext.cli('req-x'));
      expect(result.error).toBe("Tool 'boom' failed (request req-x)");
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(logger.messages('error')).toContain('[ToolRegistry] boom threw exception: db at 10.0.0.7 refused');
    });

    it('never echoes a secret argument inside an exception message', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(
        defineTool({
          name: 'login',
          description: 'd',
          handler: (args) => {
            throw new Error(`bad credentials ${String(args['password'])} for ${String(args['user'])}`);
          },
        }),
      );
      const result = await registry.call('login', { user: 'ana', password: 's3cr3t-value' });
      expect(result.error).toBe('bad credentials ***REDACTED*** for ana');
      expect(logger.dump()).not.toContain('s3cr3t-value');
    });
  });

  describe('call: timeouts', () => {
    it('marks a result that took longer than timeoutMs with the soft-timeout meta and logs the warning', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(
        defineTool({
          name: 'slow',
          description: 'd',
          timeoutMs: 1000,
          handler: () => new Promise((resolve) => setTimeout(() => resolve('late'), 1500)),
        }),
      );
      const pending = registry.call('slow');
      await vi.advanceTimersByTimeAsync(1500);
      const result = await pending;
      expect(result.success).toBe(true);
      expect(result.data).toBe('late');
      expect(result.meta).toMatchObject({ timeout_exceeded: true, execution_time: 1.5, timeout_limit: 1 });
      expect(
        logger
          .messages('warn')
          .some((line) => line.startsWith('[ToolRuntime] Timeout exceeded |') && line.includes('execution=1.500s | limit=1s')),
      ).toBe(true);
    });

    it('aborts the handler signal at the deadline while the soft timeout still waits for the result', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      let observed: AbortSignal | undefined;
      registry.register(
        defineTool({
          name: 'cooperative',
          description: 'd',
          timeoutMs: 100,
          handler: (_args, { signal }) =>
            new Promise((resolve) => {
              observed = signal;
              signal.addEventListener('abort', () => resolve(`aborted: ${(signal.reason as DOMException).name}`));
            }),
        }),
      );
      const pending = registry.call('cooperative');
      await vi.advanceTimersByTimeAsync(99);
      expect(observed?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const result = await pending;
      expect(result.data).toBe('aborted: TimeoutError');
      expect(result.meta['timeout_exceeded']).toBeUndefined();
    });

    it('gives an already aborted signal to a handler that reads it after the deadline', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'late_reader',
          description: 'd',
          timeoutMs: 50,
          handler: async (_args, invocation) => {
            await new Promise((resolve) => setTimeout(resolve, 60));
            return invocation.signal.aborted;
          },
        }),
      );
      const pending = registry.call('late_reader');
      await vi.advanceTimersByTimeAsync(60);
      expect((await pending).data).toBe(true);
    });

    it("aborts the handler signal when the caller's own signal aborts", async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const controller = new AbortController();
      registry.register(
        defineTool({
          name: 'listener',
          description: 'd',
          handler: (_args, { signal }) =>
            new Promise((resolve) => {
              signal.addEventListener('abort', () => resolve(String(signal.reason)));
              queueMicrotask(() => controller.abort('caller went away'));
            }),
        }),
      );
      const result = await registry.call('listener', {}, undefined, { signal: controller.signal });
      expect(result.data).toBe('caller went away');
    });

    it('refuses to start the handler when the caller already aborted', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const handler = vi.fn();
      registry.register(defineTool({ name: 'never', description: 'd', handler }));
      const result = await registry.call('never', {}, undefined, { signal: AbortSignal.abort('gone') });
      expect(result.meta['code']).toBe('TIMEOUT');
      expect(handler).not.toHaveBeenCalled();
    });

    it('returns TIMEOUT at the deadline without waiting when the tool opts into a hard timeout', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      let signal: AbortSignal | undefined;
      registry.register(
        defineTool({
          name: 'hung',
          description: 'd',
          timeoutMs: 200,
          hardTimeout: true,
          handler: (_args, invocation) => {
            signal = invocation.signal;
            return new Promise(() => undefined);
          },
        }),
      );
      const pending = registry.call('hung');
      await vi.advanceTimersByTimeAsync(200);
      const result = await pending;
      expect(result.error).toBe("Tool 'hung' timed out after 200 ms");
      expect(result.meta).toMatchObject({ code: 'TIMEOUT', timeout_exceeded: true, timeout_limit: 0.2 });
      expect(signal?.aborted).toBe(true);
      expect(logger.messages('warn').some((line) => line.includes('ERROR:TIMEOUT'))).toBe(true);
    });

    it('returns the handler result when a hard-timeout tool finishes in time', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 'quick', description: 'd', timeoutMs: 1000, hardTimeout: true, handler: async () => 'done' }));
      expect((await registry.call('quick')).data).toBe('done');
    });
  });
});
