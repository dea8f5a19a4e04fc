// The usage examples of the README, end to end.
import { EventDispatcher } from '@milpa/events';
import {
  type InterceptionSlot,
  InvocationDecision,
  ToolContext,
  type ToolExecutingEvent,
  ToolResult,
  Type,
  defineTool,
  invocationTarget,
  tool,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { InMemoryRateLimiter, ToolRegistry, ToolScanner } from '../src/index.js';

class NoteTools {
  @tool({
    name: 'list_notes',
    description: 'List saved notes',
    scopes: ['notes:read'],
    input: Type.Object({ page: Type.Optional(Type.Integer({ description: 'Page number' })) }),
    clamps: { page: [1, 1000] },
  })
  listNotes({ page = 1 }: { page?: number }) {
    return ToolResult.success({ notes: [], page });
  }
}

describe('usage examples', () => {
  it('runs the quick example: scan, call on cli, JSON shape', async () => {
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
    new ToolScanner(registry).scan(new NoteTools());
    const result = await registry.call('list_notes', { page: 1 }, ToolContext.cli());
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ notes: [], page: 1 });
    expect(Object.keys(JSON.parse(result.toJson()) as object)).toEqual(['success', 'data', 'message', 'error', 'meta']);
    expect((await registry.call('list_notes', { page: 5000 })).data).toEqual({ notes: [], page: 1000 });
  });

  it('runs the cache-plugin recipe with a real dispatcher, and a denied principal never reaches it', async () => {
    const dispatcher = new EventDispatcher();
    const cache = new Map<string, unknown>([['list_notes:{"page":1}', { notes: ['cached'], page: 1 }]]);
    let cacheListenerCalls = 0;
    dispatcher.subscribe('tool.executing', (_eventName, payload) => {
      cacheListenerCalls += 1;
      const event = payload['event'] as ToolExecutingEvent;
      const slot = payload['slot'] as InterceptionSlot;
      const cached = cache.get(`${event.name}:${JSON.stringify(event.args)}`);
      if (cached !== undefined) slot.shortCircuit(ToolResult.success(cached));
    });
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
    new ToolScanner(registry).scan(new NoteTools());

    const denied = await registry.call('list_notes', { page: 1 }, ToolContext.web('user:stranger', ['posts:read']));
    expect(denied.meta['code']).toBe('FORBIDDEN');
    expect(cacheListenerCalls).toBe(0);

    const hit = await registry.call('list_notes', { page: 1 }, ToolContext.web('user:reader', ['notes:read']));
    expect(hit.data).toEqual({ notes: ['cached'], page: 1 });
    expect(cacheListenerCalls).toBe(1);
  });

  it('runs the veto example', async () => {
    const dispatcher = new EventDispatcher();
    dispatcher.subscribe('tool.executing', (_eventName, payload) => {
      (payload['slot'] as InterceptionSlot).stop();
    });
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
    new ToolScanner(registry).scan(new NoteTools());
    const result = await registry.call('list_notes', {});
    expect(result.isBlocked()).toBe(true);
    expect(result.error).toBe('Tool execution vetoed by an event listener');
  });

  it('runs plan mode as a free dry run', async () => {
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
    const handler = vi.fn();
    registry.register({
      ...(await import('@milpa/core')).defineTool({ name: 'publish', description: 'Publish', mutating: true, handler }),
    });
    const result = await registry.call('publish', {}, ToolContext.cli().asPlan());
    expect((result.data as { plan: { tool: string } }).plan.tool).toBe('publish');
    expect(handler).not.toHaveBeenCalled();
  });

  it('runs the confirmation round trip on telegram', async () => {
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
    const { defineTool } = await import('@milpa/core');
    const deleted: number[] = [];
    registry.register(
      defineTool({
        name: 'delete_note',
        description: 'Delete a note',
        mutating: true,
        input: Type.Object({ id: Type.Integer() }),
        handler: ({ id }) => {
          deleted.push(id);
          return { deleted: id };
        },
      }),
    );
    const chat = ToolContext.telegram(1234, 'user:42');
    const first = await registry.call('delete_note', { id: 7 }, chat);
    expect(first.requiresConfirmation()).toBe(true);
    expect(deleted).toEqual([]);
    const second = await registry.call('delete_note', { id: 7 }, chat, { confirmToken: first.getConfirmToken() as string });
    expect(second.data).toEqual({ deleted: 7 });
    expect(deleted).toEqual([7]);
  });

  it('runs the 100 / 20 rate-limit cases', async () => {
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimiter: new InMemoryRateLimiter() });
    const { defineTool } = await import('@milpa/core');
    registry.register(defineTool({ name: 'read', description: 'r', handler: () => 1 }));
    registry.register(defineTool({ name: 'write', description: 'w', mutating: true, handler: () => 1 }));
    const outcomes = async (name: string, count: number) => {
      const codes: unknown[] = [];
      for (let index = 0; index < count; index += 1) codes.push((await registry.call(name)).meta['code'] ?? 'OK');
      return codes;
    };
    const reads = await outcomes('read', 101);
    expect(reads.slice(0, 100).every((code) => code === 'OK')).toBe(true);
    expect(reads[100]).toBe('RATE_LIMITED');
    const writes = await outcomes('write', 21);
    expect(writes.slice(0, 20).every((code) => code === 'OK')).toBe(true);
    expect(writes[20]).toBe('RATE_LIMITED');
  });

  it('denies the fourth deletion of a run, as the invocation-rules example says', async () => {
    const registry = new ToolRegistry({
      targetResolvers: [
        { resolve: ({ toolName, arguments: args }) => (toolName.endsWith('_note') ? invocationTarget('note', String(args['id'])) : null) },
      ],
      rules: [
        {
          identifier: 'notes.max_deletions_per_run',
          requiresCompleteHistory: true,
          tools: ['delete_note'],
          evaluate: ({ history }) =>
            history.count({ tool: 'delete_note', outcome: 'executed' }) >= 3
              ? InvocationDecision.deny('too_many_deletions')
              : InvocationDecision.allow(),
        },
      ],
    });
    registry.register(
      defineTool({
        name: 'delete_note',
        description: 'Delete a note',
        input: Type.Object({ id: Type.String() }),
        mutating: true,
        handler: () => 'deleted',
      }),
    );
    const context = ToolContext.web('user:ana', ['*']);
    const runId = await registry.startRun();
    const codes = [];
    for (const id of ['n1', 'n2', 'n3', 'n4'])
      codes.push((await registry.call('delete_note', { id }, context.with({ runId }))).meta['reason'] ?? 'ok');
    expect(codes).toEqual(['ok', 'ok', 'ok', 'too_many_deletions']);
    const denied = await registry.call('delete_note', { id: 'n5' }, context.with({ runId }));
    expect(denied.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.max_deletions_per_run', reason: 'too_many_deletions' });
  });
});
