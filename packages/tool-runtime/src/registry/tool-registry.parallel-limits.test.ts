import {
  InvocationDecision,
  MilpaError,
  ToolContext,
  Type,
  defineTool,
  invocationTarget,
  type InFlightInvocation,
  type InvocationHistoryStore,
  type InvocationObservation,
  type InvocationRule,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { InMemoryInvocationHistoryStore } from '../invocation/in-memory-invocation-history-store.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const LIMIT = 3;
const PARALLEL = 20;

const atMostThreeDeletions: InvocationRule = {
  identifier: 'notes.max_deletions_per_run',
  requiresCompleteHistory: true,
  tools: ['delete_note'],
  evaluate: ({ history }) =>
    history.count({ tool: 'delete_note', outcome: 'executed' }) >= LIMIT
      ? InvocationDecision.deny('too_many_deletions')
      : InvocationDecision.allow(),
};

const web = (runId: string | null) => new ToolContext({ principal: 'user:ana', channel: 'web', scopes: ['*'], runId });

/** The in-memory store behind a network-like delay: every answer arrives a macrotask later. */
function asyncStore(store: InMemoryInvocationHistoryStore): InvocationHistoryStore {
  const later = <T>(answer: () => T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(answer()), 0));
  return {
    startRun: (runId) => later(() => store.startRun(runId)),
    load: (runId) => later(() => store.load(runId)),
    append: (runId, observation) => later(() => store.append(runId, observation)),
    reserve: (runId, call: InFlightInvocation, leaseMs) => later(() => store.reserve(runId, call, leaseMs)),
    settle: (runId, id, observation: InvocationObservation) => later(() => store.settle(runId, id, observation)),
  };
}

function setup(options: ToolRegistryOptions, fail: (id: string) => boolean = () => false) {
  const handler = vi.fn(async ({ id }: { id: string }) => {
    // The handler takes its time, so every call is in flight at once.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (fail(id)) throw new Error('the note is locked');
    return { deleted: id };
  });
  const registry = new ToolRegistry({ rules: [atMostThreeDeletions], ...options });
  registry.register(
    defineTool({ name: 'delete_note', description: 'Delete a note', input: Type.Object({ id: Type.String() }), mutating: true, handler }),
  );
  registry.register(
    defineTool({ name: 'read_note', description: 'Read a note', input: Type.Object({ id: Type.String() }), handler: ({ id }) => ({ id }) }),
  );
  return { registry, handler };
}

async function deleteInParallel(registry: ToolRegistry, runId: string, count = PARALLEL) {
  return Promise.all(Array.from({ length: count }, (_, index) => registry.call('delete_note', { id: `n${String(index)}` }, web(runId))));
}

describe('ToolRegistry per-run limits under parallel calls', () => {
  it.each([
    ['the in-memory store', () => new InMemoryInvocationHistoryStore()],
    ['an asynchronous store', () => asyncStore(new InMemoryInvocationHistoryStore())],
  ])(
    `executes exactly ${String(LIMIT)} of ${String(PARALLEL)} parallel deletions in one run under a limit of ${String(LIMIT)} (%s)`,
    async (_label, make) => {
      const store = make();
      const { registry, handler } = setup({ historyStore: store });
      const runId = await registry.startRun();
      const results = await deleteInParallel(registry, runId);
      expect(handler).toHaveBeenCalledTimes(LIMIT);
      expect(results.filter((result) => result.success)).toHaveLength(LIMIT);
      const refused = results.filter((result) => !result.success);
      expect(refused).toHaveLength(PARALLEL - LIMIT);
      for (const result of refused) expect(result.meta).toMatchObject({ code: 'FORBIDDEN', reason: 'too_many_deletions' });
      const history = await store.load(runId);
      expect(history).toMatchObject({ complete: true, length: PARALLEL, inFlight: [] });
      expect(history?.count({ outcome: 'executed' })).toBe(LIMIT);
      expect(history?.count({ outcome: 'invocation_denied' })).toBe(PARALLEL - LIMIT);
    },
  );

  it('lets a later call pass once parallel calls ahead of it failed, since failed calls give up their place', async () => {
    const store = new InMemoryInvocationHistoryStore();
    const { registry, handler } = setup({ historyStore: store }, (id) => id.startsWith('locked'));
    const runId = await registry.startRun();
    const failed = await Promise.all(['locked-1', 'locked-2', 'locked-3'].map((id) => registry.call('delete_note', { id }, web(runId))));
    expect(failed.map((result) => result.outcome?.name)).toEqual(['failed', 'failed', 'failed']);
    const results = await deleteInParallel(registry, runId, 5);
    expect(results.filter((result) => result.success)).toHaveLength(LIMIT);
    expect(handler).toHaveBeenCalledTimes(3 + LIMIT);
    expect(store.load(runId)).toMatchObject({ complete: true, length: 8, inFlight: [] });
  });

  it('keeps the limits of two runs apart when their calls overlap', async () => {
    const { registry, handler } = setup({});
    const [first, second] = await Promise.all([registry.startRun(), registry.startRun()]);
    const [inFirst, inSecond] = await Promise.all([deleteInParallel(registry, first), deleteInParallel(registry, second)]);
    expect(inFirst?.filter((result) => result.success)).toHaveLength(LIMIT);
    expect(inSecond?.filter((result) => result.success)).toHaveLength(LIMIT);
    expect(handler).toHaveBeenCalledTimes(2 * LIMIT);
  });

  it('shows a rule the calls of other tools in flight, with their targets', async () => {
    const seen: unknown[] = [];
    const neverTwice: InvocationRule = {
      identifier: 'notes.one_call_per_note',
      evaluate: ({ history, target }) => {
        seen.push(history.inFlight);
        return history.some({ targetId: target?.id ?? '' }) ? InvocationDecision.deny('note_busy') : InvocationDecision.allow();
      },
    };
    const { registry } = setup({
      rules: [neverTwice],
      targetResolvers: [{ resolve: ({ arguments: args }) => invocationTarget('note', String(args['id'])) }],
    });
    const runId = await registry.startRun();
    const [deleted, read] = await Promise.all([
      registry.call('delete_note', { id: 'n1' }, web(runId)),
      registry.call('read_note', { id: 'n1' }, web(runId)),
    ]);
    expect(deleted?.success).toBe(true);
    expect(read?.meta).toMatchObject({ reason: 'note_busy' });
    expect(seen[1]).toEqual([{ tool: 'delete_note', target: { kind: 'note', id: 'n1' } }]);
  });

  it('refuses a call whose place expired while it waited only when the rule needs a complete history', async () => {
    let now = 1_000_000;
    const store = new InMemoryInvocationHistoryStore({ now: () => now });
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const registry = new ToolRegistry({ rules: [atMostThreeDeletions], historyStore: store, historyLeaseSeconds: 60 });
    registry.register(
      defineTool({
        name: 'delete_note',
        description: 'Delete a note',
        input: Type.Object({ id: Type.String() }),
        mutating: true,
        handler: async ({ id }: { id: string }) => (id === 'slow' ? (await stuck, { id }) : { id }),
      }),
    );
    const runId = await registry.startRun();
    const slow = registry.call('delete_note', { id: 'slow' }, web(runId));
    expect(store.load(runId)?.inFlight).toHaveLength(1);
    now += 61_000;
    const after = await registry.call('delete_note', { id: 'n2' }, web(runId));
    expect(after.meta).toMatchObject({ code: 'FORBIDDEN', reason: 'history_incomplete' });
    release();
    expect((await slow).success).toBe(true);
    expect(store.load(runId)).toMatchObject({ complete: false, inFlight: [] });
  });

  it('refuses to build on a history store without reserve and settle, naming what is missing', () => {
    const old = new InMemoryInvocationHistoryStore();
    const legacy = {
      startRun: (runId: string) => old.startRun(runId),
      load: (runId: string) => old.load(runId),
      append: old.append.bind(old),
    };
    let error: unknown;
    try {
      new ToolRegistry({ historyStore: legacy as unknown as InvocationHistoryStore });
    } catch (caught) {
      error = caught;
    }
    expect(MilpaError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_INVOCATION_RULE' });
    expect((error as Error).message).toContain('missing: reserve, settle');
  });

  it('rejects a lease that is not a positive number', () => {
    for (const historyLeaseSeconds of [0, -1, Number.NaN, '60' as unknown as number]) {
      expect(() => new ToolRegistry({ historyLeaseSeconds })).toThrow(/historyLeaseSeconds must be a positive number/);
    }
  });
});
