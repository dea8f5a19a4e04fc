import { EventDispatcher } from '@milpa/events';
import {
  InterceptionSlot,
  ToolContext,
  type ToolExecutedEvent,
  ToolExecutingEvent,
  type ToolFailedEvent,
  ToolResult,
  Type,
  defineTool,
  type EventDispatcher as EventDispatcherContract,
  type EventPayload,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { InMemoryRateLimiter } from '../rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from './tool-registry.js';

function reportRegistry(options: { logger?: RecordingLogger } = {}) {
  const dispatcher = new EventDispatcher();
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher, logger: options.logger });
  const callback = vi.fn(() => ({ id: 42, source: 'live' }));
  registry.register(defineTool({ name: 'get_report', description: 'Read a report', scopes: ['reports:read'], handler: callback }));
  const executed: ToolExecutedEvent[] = [];
  dispatcher.subscribe('tool.executed', (_name, payload) => {
    executed.push(payload['event'] as ToolExecutedEvent);
  });
  return { dispatcher, registry, callback, executed };
}

describe('ToolRegistry', () => {
  describe('events: the security anchor', () => {
    it('never lets a cache listener answer a call the policy denied (the cache recipe)', async () => {
      const { dispatcher, registry, callback, executed } = reportRegistry();
      let cacheInvocations = 0;
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        cacheInvocations += 1;
        (payload['slot'] as InterceptionSlot).shortCircuit(ToolResult.success({ id: 42, source: 'cache' }));
      });
      const denied = await registry.call('get_report', {}, ToolContext.web('user:intruder', ['posts:read']));
      expect(denied.meta['code']).toBe('FORBIDDEN');
      expect(cacheInvocations).toBe(0);
      expect(callback).not.toHaveBeenCalled();
      expect(executed).toHaveLength(0);
    });

    it('returns the cached ToolResult instance unchanged and emits tool.executed once with cacheServed true', async () => {
      const logger = new RecordingLogger();
      const { dispatcher, registry, callback, executed } = reportRegistry({ logger });
      const cached = ToolResult.success({ id: 42, source: 'cache' });
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        (payload['slot'] as InterceptionSlot).shortCircuit(cached);
      });
      const result = await registry.call('get_report', {}, ToolContext.web('user:reader', ['reports:read']));
      expect(result).toBe(cached);
      expect(callback).not.toHaveBeenCalled();
      expect(executed).toHaveLength(1);
      expect(executed[0]?.cacheServed).toBe(true);
      expect(executed[0]?.result).toBe(result);
      expect(executed[0]?.name).toBe('get_report');
      expect(logger.messages('info').some((line) => line.includes('| get_report | user:reader |') && line.includes('| OK |'))).toBe(true);
    });

    it.each([null, 0, 'cached text', { a: 1 }])(
      'wraps a short-circuit value %j in ToolResult.success with standard meta',
      async (value) => {
        const { dispatcher, registry } = reportRegistry();
        dispatcher.subscribe('tool.executing', (_name, payload) => {
          (payload['slot'] as InterceptionSlot).shortCircuit(value);
        });
        const context = ToolContext.web('user:reader', ['reports:read']);
        const result = await registry.call('get_report', {}, context);
        expect(result.success).toBe(true);
        expect(result.data).toEqual(value);
        expect(result.meta).toMatchObject({ tool: 'get_report', request_id: context.requestId, channel: 'web', principal: 'user:reader' });
      },
    );

    it('returns the veto result and emits no post event when a listener stops the slot without a result', async () => {
      const logger = new RecordingLogger();
      const { dispatcher, registry, callback, executed } = reportRegistry({ logger });
      const failed = vi.fn();
      dispatcher.subscribe('tool.failed', failed);
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        (payload['slot'] as InterceptionSlot).stop();
      });
      const context = ToolContext.web('user:reader', ['reports:read']);
      const result = await registry.call('get_report', {}, context);
      expect(result.success).toBe(false);
      expect(result.error).toBe('Tool execution vetoed by an event listener');
      expect(result.meta).toEqual({
        type: 'blocked',
        blocked_by_rule: true,
        suggestion: null,
        tool: 'get_report',
        took_ms: result.meta['took_ms'],
        request_id: context.requestId,
        channel: 'web',
        principal: 'user:reader',
      });
      expect(result.meta).not.toHaveProperty('code');
      expect(callback).not.toHaveBeenCalled();
      expect(executed).toHaveLength(0);
      expect(failed).not.toHaveBeenCalled();
      expect(logger.messages('warn').some((line) => line.startsWith('[ToolAudit] VETOED |'))).toBe(true);
    });

    it('runs the handler and emits cacheServed false when listeners leave the slot untouched', async () => {
      const { dispatcher, registry, callback, executed } = reportRegistry();
      dispatcher.subscribe('tool.executing', () => undefined);
      const result = await registry.call('get_report', {}, ToolContext.web('user:reader', ['reports:read']));
      expect(result.data).toEqual({ id: 42, source: 'live' });
      expect(callback).toHaveBeenCalledTimes(1);
      expect(executed[0]?.cacheServed).toBe(false);
    });

    it('does not invoke a lower-priority listener after a higher-priority one short-circuits', async () => {
      const { dispatcher, registry } = reportRegistry();
      const low = vi.fn();
      dispatcher.subscribe('tool.executing', low, -10);
      dispatcher.subscribe(
        'tool.executing',
        (_name, payload) => {
          (payload['slot'] as InterceptionSlot).shortCircuit('hit');
        },
        10,
      );
      await registry.call('get_report', {}, ToolContext.web('user:reader', ['reports:read']));
      expect(low).not.toHaveBeenCalled();
    });

    it('dispatches tool.executing with {event, slot} carrying the final args and never a _ctx key', async () => {
      const dispatcher = new EventDispatcher();
      const payloads: EventPayload[] = [];
      dispatcher.subscribe('tool.*', (_name, payload) => {
        payloads.push(payload);
      });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
      registry.register(
        defineTool({
          name: 'page',
          description: 'd',
          input: Type.Object({ page: Type.Integer() }),
          clamps: { page: [1, 10] },
          handler: () => 'x',
        }),
      );
      await registry.call('page', { page: 50 });
      const [executing, executed] = payloads;
      expect(Object.keys(executing ?? {}).sort()).toEqual(['event', 'slot']);
      expect(executing?.['event']).toBeInstanceOf(ToolExecutingEvent);
      expect(InterceptionSlot.isInstance(executing?.['slot'])).toBe(true);
      expect((executing?.['event'] as ToolExecutingEvent).args).toEqual({ page: 10 });
      expect(Object.keys(executed ?? {})).toEqual(['event']);
      expect((executed?.['event'] as ToolExecutedEvent).args).toEqual({ page: 10 });
    });

    it('never dispatches tool.executing for validation, rate-limit, plan, confirmation, invalid-token or unknown-tool stops', async () => {
      const dispatcher = new EventDispatcher();
      const executing = vi.fn();
      dispatcher.subscribe('tool.executing', executing);
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        dispatcher,
        rateLimiter: new InMemoryRateLimiter(),
        rateLimit: { maxTokens: 2 },
      });
      registry.register(defineTool({ name: 'v', description: 'd', input: Type.Object({ a: Type.String() }), handler: () => 1 }));
      registry.register(defineTool({ name: 'c', description: 'd', requiresConfirmation: true, handler: () => 1 }));
      registry.register(defineTool({ name: 'r', description: 'd', handler: () => 1 }));
      await registry.call('v', {});
      await registry.call('c', {}, ToolContext.cli().asPlan());
      await registry.call('c', {}, ToolContext.cli('other'));
      await registry.call('c', {}, new ToolContext({ channel: 'cli', principal: 'x', scopes: ['*'] }), { confirmToken: 'bogus' });
      await registry.call('r', {}, ToolContext.cli());
      await registry.call('r', {}, ToolContext.cli());
      const limited = await registry.call('r', {}, ToolContext.cli());
      await registry.call('nope', {});
      expect(limited.meta['code']).toBe('RATE_LIMITED');
      expect(executing).toHaveBeenCalledTimes(2);
    });

    it('emits tool.failed with the thrown value and tookMs when the handler throws', async () => {
      const dispatcher = new EventDispatcher();
      const failed: ToolFailedEvent[] = [];
      dispatcher.subscribe('tool.failed', (_name, payload) => {
        failed.push(payload['event'] as ToolFailedEvent);
      });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
      const thrown = new Error('Something went wrong');
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw thrown;
          },
        }),
      );
      await registry.call('boom', { a: 1 });
      expect(failed).toHaveLength(1);
      expect(failed[0]?.error).toBe(thrown);
      expect(failed[0]?.args).toEqual({ a: 1 });
      expect(typeof failed[0]?.tookMs).toBe('number');
      expect(Object.isFrozen(failed[0])).toBe(true);
    });

    it('subscribes its audit logger to tool.executed and tool.failed before any host listener', () => {
      const dispatcher = new EventDispatcher();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
      expect(registry.hasDispatcher()).toBe(true);
      expect(dispatcher.getSubscribers('tool.executed')).toHaveLength(1);
      expect(dispatcher.getSubscribers('tool.failed')).toHaveLength(1);
    });
  });

  describe('events: post-execution listeners', () => {
    it('cannot turn a success into a failure when a tool.executed listener throws', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher({ logger });
      dispatcher.subscribe('tool.executed', () => {
        throw new Error('listener bug');
      });
      const failed = vi.fn();
      dispatcher.subscribe('tool.failed', failed);
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher, logger });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 'fine' }));
      const result = await registry.call('ok');
      expect(result.success).toBe(true);
      expect(result.data).toBe('fine');
      expect(failed).not.toHaveBeenCalled();
      expect(logger.messages('info').filter((line) => line.includes('| ok |') && line.includes('| OK |'))).toHaveLength(1);
    });

    it('cannot change the result through the event (results are frozen)', async () => {
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe('tool.executed', (_name, payload) => {
        const result = (payload['event'] as ToolExecutedEvent).result as unknown as Record<string, unknown>;
        try {
          result['success'] = false;
        } catch {
          // strict mode: assignment to a frozen object throws, which the dispatcher isolates
        }
      });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 'fine' }));
      expect((await registry.call('ok')).success).toBe(true);
    });

    it('keeps the result when a non-isolating dispatcher rejects on tool.executed', async () => {
      const rejecting: EventDispatcherContract = {
        subscribe: () => () => undefined,
        hasSubscribers: () => true,
        getSubscribers: () => [],
        dispatch: async (name) => {
          if (name === 'tool.executed') throw new Error('dispatcher bug');
        },
      };
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher: rejecting });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 'fine' }));
      const result = await registry.call('ok');
      expect(result).toMatchObject({ success: true, data: 'fine' });
    });

    it('refuses the call (fail-closed) when a non-isolating dispatcher rejects on tool.executing', async () => {
      const handler = vi.fn();
      const rejecting: EventDispatcherContract = {
        subscribe: () => () => undefined,
        hasSubscribers: () => true,
        getSubscribers: () => [],
        dispatch: async (name) => {
          if (name === 'tool.executing') throw new Error('cache plugin crashed');
        },
      };
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher: rejecting });
      registry.register(defineTool({ name: 'guarded', description: 'd', handler }));
      const result = await registry.call('guarded');
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(handler).not.toHaveBeenCalled();
    });

    it('audits each call once without dispatching tool.executed when its own audit is the only listener', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const dispatch = vi.spyOn(dispatcher, 'dispatch');
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher, logger });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 'fine' }));
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new Error('x');
          },
        }),
      );
      await registry.call('ok');
      await registry.call('boom');
      expect(dispatch).not.toHaveBeenCalled();
      expect(logger.messages('info').filter((line) => line.includes('| ok |') && line.includes('| OK |'))).toHaveLength(1);
      expect(logger.messages('warn').filter((line) => line.includes('| boom |') && line.includes('ERROR:EXCEPTION'))).toHaveLength(1);
    });

    it('dispatches to a host listener subscribed after earlier calls, and still audits once per call', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher, logger });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 'fine' }));
      await registry.call('ok');
      const executed: ToolExecutedEvent[] = [];
      const wildcard = vi.fn();
      dispatcher.subscribe('tool.executed', (_name, payload) => {
        executed.push(payload['event'] as ToolExecutedEvent);
      });
      dispatcher.subscribe('tool.*', wildcard);
      await registry.call('ok');
      expect(executed).toHaveLength(1);
      expect(executed[0]?.result.data).toBe('fine');
      expect(wildcard.mock.calls.map(([name]) => name)).toEqual(['tool.executing', 'tool.executed']);
      expect(logger.messages('info').filter((line) => line.includes('| ok |') && line.includes('| OK |'))).toHaveLength(2);
    });

    it('dispatches tool.executed when the dispatcher cannot list its subscribers', async () => {
      const dispatched: string[] = [];
      const opaque: EventDispatcherContract = {
        subscribe: () => () => undefined,
        hasSubscribers: () => false,
        getSubscribers: () => {
          throw new Error('not listable');
        },
        dispatch: async (name) => {
          dispatched.push(name);
        },
      };
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher: opaque });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 'fine' }));
      const result = await registry.call('ok');
      expect(result).toMatchObject({ success: true, data: 'fine' });
      expect(dispatched).toEqual(['tool.executed']);
    });

    it('audits each call once while slow host listeners run before and after its own', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher, logger });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 'fine' }));
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new Error('x');
          },
        }),
      );
      const slow = async (): Promise<void> => {
        await new Promise((resolve) => setImmediate(resolve));
      };
      dispatcher.subscribe('tool.*', slow, 10);
      dispatcher.subscribe('tool.*', slow, -10);
      await Promise.all([registry.call('ok'), registry.call('ok'), registry.call('boom')]);
      expect(logger.messages('info').filter((line) => line.includes('| ok |') && line.includes('| OK |'))).toHaveLength(2);
      expect(logger.messages('warn').filter((line) => line.includes('| boom |') && line.includes('ERROR:EXCEPTION'))).toHaveLength(1);
    });

    it('audits only its own calls when two registries share one dispatcher', async () => {
      const dispatcher = new EventDispatcher();
      const loggerA = new RecordingLogger();
      const loggerB = new RecordingLogger();
      const registryA = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher, logger: loggerA });
      const registryB = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher, logger: loggerB });
      registryA.register(defineTool({ name: 'a', description: 'd', handler: () => 1 }));
      registryB.register(defineTool({ name: 'b', description: 'd', handler: () => 1 }));
      await registryA.call('a');
      expect(loggerA.matching('| a |')).toHaveLength(1);
      expect(loggerB.lines).toHaveLength(0);
    });
  });

  describe('events: without a dispatcher', () => {
    it('still audits successes and exceptions', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 1 }));
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new Error('x');
          },
        }),
      );
      await registry.call('ok');
      await registry.call('boom');
      expect(logger.messages('info').filter((line) => line.includes('| ok |') && line.includes('| OK |'))).toHaveLength(1);
      expect(logger.messages('warn').filter((line) => line.includes('| boom |') && line.includes('ERROR:EXCEPTION'))).toHaveLength(1);
    });
  });
});
