import {
  InvocationDecision,
  InvocationHistory,
  ToolContext,
  Type,
  defineTool,
  invocationTarget,
  type Invocation,
  type InvocationHistoryStore,
  type InvocationRule,
  type TargetResolver,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import type { ToolRegistryOptions } from '../registry/tool-registry-options.js';

const context = (runId: string | null = null) =>
  new ToolContext({ principal: 'user:1', channel: 'web', scopes: ['*'], runId, requestId: 'req-1' });

function setup(options: ToolRegistryOptions) {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ logger, ...options });
  registry.register(defineTool({ name: 'edit_page', description: 'd', input: Type.Object({ id: Type.String() }), handler: () => 'ok' }));
  return { registry, logger };
}

const observe = (seen: Invocation[]): InvocationRule => ({
  identifier: 'observe',
  evaluate: (invocation) => {
    seen.push(invocation);
    return InvocationDecision.allow();
  },
});

const page: TargetResolver = { resolve: ({ arguments: args }) => invocationTarget('page', String(args['id'])) };

describe('evaluateInvocation (through the rules stage)', () => {
  describe('log lines', () => {
    it.each([
      ['a RangeError', () => new RangeError('x'), 'RangeError'],
      ['null', () => null, 'null'],
      ['a string', () => 'boom', 'string'],
    ])('names the type of what a rule threw: %s', async (_label, make, kind) => {
      const { registry, logger } = setup({
        rules: [
          {
            identifier: 'fragile',
            evaluate: () => {
              throw make();
            },
          },
        ],
      });
      await registry.call('edit_page', { id: 'p1' }, context());
      const [line] = logger.matching("invocation rule 'fragile' failed");
      expect(line?.level).toBe('error');
      expect(line?.message).toBe(`[ToolRegistry] invocation rule 'fragile' failed (${kind}); the call is refused as rule_failed`);
      expect(line?.context).toEqual({ tool: 'edit_page', rule: 'fragile', request_id: 'req-1', error_type: kind });
    });

    it('logs a resolver that fails at error level, with its position and the error type', async () => {
      const { registry, logger } = setup({
        rules: [observe([])],
        targetResolvers: [
          { resolve: () => null },
          {
            resolve: () => {
              throw new SyntaxError('x');
            },
          },
        ],
      });
      await registry.call('edit_page', { id: 'p1' }, context());
      const [line] = logger.matching('target resolver 1 failed');
      expect(line?.level).toBe('error');
      expect(line?.message).toBe('[ToolRegistry] target resolver 1 failed (SyntaxError); the call is refused as target_failed');
      expect(line?.context).toEqual({ tool: 'edit_page', resolver: 1, request_id: 'req-1', error_type: 'SyntaxError' });
    });

    it('logs a malformed target as a TypeError of that resolver', async () => {
      const { registry, logger } = setup({ rules: [observe([])], targetResolvers: [{ resolve: () => ({ kind: 'page' }) as never }] });
      await registry.call('edit_page', { id: 'p1' }, context());
      expect(logger.matching('target resolver 0 failed (TypeError)')).toHaveLength(1);
    });

    it('logs a denial at warn with the rule, reason and run, never the arguments', async () => {
      const { registry, logger } = setup({ rules: [{ identifier: 'no_edits', evaluate: () => InvocationDecision.deny('frozen_page') }] });
      const runId = await registry.startRun({ runId: 'run-7' });
      await registry.call('edit_page', { id: 'p-secret' }, context(runId));
      const [line] = logger.matching("invocation rule 'no_edits' denied");
      expect(line?.level).toBe('warn');
      expect(line?.message).toBe("[ToolRegistry] invocation rule 'no_edits' denied 'edit_page' (reason: frozen_page)");
      expect(line?.context).toEqual({ tool: 'edit_page', rule: 'no_edits', reason: 'frozen_page', request_id: 'req-1', run_id: 'run-7' });
    });
  });

  describe('targets', () => {
    it('treats a resolver answering undefined as not claiming the call', async () => {
      const seen: Invocation[] = [];
      const { registry } = setup({ rules: [observe(seen)], targetResolvers: [{ resolve: () => undefined as never }, page] });
      expect((await registry.call('edit_page', { id: 'p1' }, context())).success).toBe(true);
      expect(seen[0]?.target).toEqual({ kind: 'page', id: 'p1' });
    });

    it('keeps a claim when a later resolver does not claim', async () => {
      const seen: Invocation[] = [];
      const { registry } = setup({ rules: [observe(seen)], targetResolvers: [page, { resolve: () => null }] });
      expect((await registry.call('edit_page', { id: 'p1' }, context())).success).toBe(true);
      expect(seen[0]?.target).toEqual({ kind: 'page', id: 'p1' });
    });

    it.each([
      ['after a claim', [page, { resolve: () => ({ kind: 'page', id: '' }) as never }]],
      ['before a claim', [{ resolve: () => 42 as never }, page]],
      [
        'after an asynchronous claim',
        [{ resolve: async () => invocationTarget('page', 'a') }, { resolve: async () => ({ nope: true }) as never }],
      ],
    ] as [string, TargetResolver[]][])('refuses as target_failed, not as a conflict, a malformed answer %s', async (_label, resolvers) => {
      const { registry } = setup({ rules: [observe([])], targetResolvers: resolvers });
      expect((await registry.call('edit_page', { id: 'p1' }, context())).meta['reason']).toBe('target_failed');
    });

    it('refuses three claims as a conflict', async () => {
      const { registry } = setup({ rules: [observe([])], targetResolvers: [page, page, page] });
      expect((await registry.call('edit_page', { id: 'p1' }, context())).meta['reason']).toBe('target_conflict');
    });

    it('gives the rules the exact target an asynchronous resolver claims', async () => {
      const seen: Invocation[] = [];
      const { registry } = setup({
        rules: [observe(seen)],
        targetResolvers: [{ resolve: async () => invocationTarget('page', 'p9') }, { resolve: () => null }],
      });
      expect((await registry.call('edit_page', { id: 'p1' }, context())).success).toBe(true);
      expect(seen[0]?.target).toEqual({ kind: 'page', id: 'p9' });
    });
  });

  describe('history', () => {
    type SpyStore = InvocationHistoryStore & {
      load: ReturnType<typeof vi.fn>;
      reserve: ReturnType<typeof vi.fn>;
      settle: ReturnType<typeof vi.fn>;
      append: ReturnType<typeof vi.fn>;
    };

    /** A store whose every place comes with `history` as the history up to it. */
    function spyStore(history: unknown, id: unknown = 'place-1'): SpyStore {
      return {
        startRun: () => true,
        load: vi.fn(() => history),
        append: vi.fn(() => undefined),
        reserve: vi.fn(() => ({ id, history })),
        settle: vi.fn(() => undefined),
      } as never;
    }

    it('never asks the store for the history of a call outside any run', async () => {
      const store = spyStore(InvocationHistory.empty());
      const seen: Invocation[] = [];
      const { registry } = setup({ rules: [observe(seen)], historyStore: store });
      await registry.call('edit_page', { id: 'p1' }, context());
      expect(store.load).not.toHaveBeenCalled();
      expect(store.reserve).not.toHaveBeenCalled();
      expect(seen[0]?.history.complete).toBe(false);
    });

    it('takes no place and loads no history when the registry has no rule, even for a call in a run with a target', async () => {
      const store = spyStore(InvocationHistory.empty());
      const { registry } = setup({ targetResolvers: [page], historyStore: store });
      expect((await registry.call('edit_page', { id: 'p1' }, context('run-1'))).success).toBe(true);
      expect(store.load).not.toHaveBeenCalled();
      expect(store.reserve).not.toHaveBeenCalled();
      expect(store.append).toHaveBeenCalledWith('run-1', { tool: 'edit_page', outcome: 'executed', target: { kind: 'page', id: 'p1' } });
    });

    it('takes a place with the tool, target and lease before the rules run, and settles that place when the call ends', async () => {
      const store = spyStore(InvocationHistory.empty(), 'place-7');
      const order: string[] = [];
      store.reserve.mockImplementation(() => (order.push('reserve'), { id: 'place-7', history: InvocationHistory.empty() }));
      const rule: InvocationRule = { identifier: 'r', evaluate: () => (order.push('rule'), InvocationDecision.allow()) };
      const { registry } = setup({ rules: [rule], targetResolvers: [page], historyStore: store, historyLeaseSeconds: 30 });
      expect((await registry.call('edit_page', { id: 'p1' }, context('run-1'))).success).toBe(true);
      expect(order).toEqual(['reserve', 'rule']);
      expect(store.reserve).toHaveBeenCalledWith('run-1', { tool: 'edit_page', target: { kind: 'page', id: 'p1' } }, 30_000);
      expect(store.settle).toHaveBeenCalledWith('run-1', 'place-7', {
        tool: 'edit_page',
        outcome: 'executed',
        target: { kind: 'page', id: 'p1' },
      });
      expect(store.append).not.toHaveBeenCalled();
    });

    it('takes a place for a call of a tool no rule applies to, so the rules of other tools see it in flight', async () => {
      const store = spyStore(InvocationHistory.empty());
      const { registry } = setup({ rules: [{ ...observe([]), tools: ['other_tool'] }], historyStore: store });
      expect((await registry.call('edit_page', { id: 'p1' }, context('run-1'))).success).toBe(true);
      expect(store.reserve).toHaveBeenCalledTimes(1);
      expect(store.settle).toHaveBeenCalledWith('run-1', 'place-1', { tool: 'edit_page', outcome: 'executed', target: null });
    });

    it('refuses the call (fail-closed) when the store answers a reservation without a history or an id', async () => {
      for (const store of [
        spyStore(undefined),
        spyStore(null),
        spyStore(InvocationHistory.empty(), ''),
        spyStore(InvocationHistory.empty(), 7),
      ]) {
        const { registry } = setup({ rules: [observe([])], historyStore: store });
        const result = await registry.call('edit_page', { id: 'p1' }, context('run-1'));
        expect(result.meta['code']).toBe('INTERNAL_ERROR');
        expect(result.error).toContain('the history store answered a malformed reservation');
        expect(store.append).toHaveBeenCalledTimes(1);
      }
    });

    it('turns a plain history object from a shared store into a history the rules can count, calls in flight included', async () => {
      const plain = { observations: [{ tool: 'edit_page', outcome: 'executed', target: null }], complete: true };
      const seen: Invocation[] = [];
      const counting: InvocationRule = {
        identifier: 'count',
        requiresCompleteHistory: true,
        evaluate: (invocation) => (
          seen.push(invocation),
          invocation.history.count({ tool: 'edit_page' }) >= 1 ? InvocationDecision.deny('once_only') : InvocationDecision.allow()
        ),
      };
      const { registry } = setup({ rules: [counting], historyStore: spyStore(plain) });
      expect((await registry.call('edit_page', { id: 'p1' }, context('run-1'))).meta['reason']).toBe('once_only');
      expect(seen[0]?.history).toBeInstanceOf(InvocationHistory);
      expect(seen[0]?.history.inFlight).toEqual([]);
      const inFlight = { observations: [], complete: true, inFlight: [{ tool: 'edit_page', target: null }] };
      const parallel = setup({ rules: [counting], historyStore: spyStore(inFlight) });
      expect((await parallel.registry.call('edit_page', { id: 'p1' }, context('run-1'))).meta['reason']).toBe('once_only');
    });

    it('counts a plain history as complete only when complete is exactly true', async () => {
      const { registry } = setup({
        rules: [{ ...observe([]), requiresCompleteHistory: true }],
        historyStore: spyStore({ observations: [], complete: 'yes' }),
      });
      expect((await registry.call('edit_page', { id: 'p1' }, context('run-1'))).meta['reason']).toBe('history_incomplete');
      const complete = setup({
        rules: [{ ...observe([]), requiresCompleteHistory: true }],
        historyStore: spyStore({ observations: [], complete: true }),
      });
      expect((await complete.registry.call('edit_page', { id: 'p1' }, context('run-1'))).success).toBe(true);
    });

    it('refuses the call (fail-closed) when the store answers a malformed history', async () => {
      for (const history of [{ observations: 'none' }, { observations: [], inFlight: 'none' }]) {
        const { registry } = setup({ rules: [observe([])], historyStore: spyStore(history) });
        const result = await registry.call('edit_page', { id: 'p1' }, context('run-1'));
        expect(result.meta['code']).toBe('INTERNAL_ERROR');
        expect(result.error).toContain('the history store answered a malformed history');
      }
    });

    it('settles the place once the store answers, even when the caller aborted while it waited', async () => {
      let answer: (value: unknown) => void = () => undefined;
      const store = spyStore(InvocationHistory.empty());
      store.reserve.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
      const { registry } = setup({ rules: [observe([])], historyStore: store });
      const controller = new AbortController();
      const pending = registry.call('edit_page', { id: 'p1' }, context('run-1'), { signal: controller.signal });
      await vi.waitFor(() => expect(store.reserve).toHaveBeenCalled());
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 5));
      answer({ id: 'late-place', history: InvocationHistory.empty() });
      expect((await pending).success).toBe(false);
      await vi.waitFor(() =>
        expect(store.settle).toHaveBeenCalledWith('run-1', 'late-place', expect.objectContaining({ tool: 'edit_page' })),
      );
      expect(store.append).not.toHaveBeenCalled();
    });

    it('records the call with append when taking its place failed', async () => {
      const store = spyStore(InvocationHistory.empty());
      store.reserve.mockImplementation(() => Promise.reject(new Error('store offline')));
      const { registry } = setup({ rules: [observe([])], historyStore: store });
      expect((await registry.call('edit_page', { id: 'p1' }, context('run-1'))).meta['code']).toBe('INTERNAL_ERROR');
      expect(store.settle).not.toHaveBeenCalled();
      expect(store.append).toHaveBeenCalledWith('run-1', expect.objectContaining({ outcome: 'internal_error' }));
    });
  });
});
