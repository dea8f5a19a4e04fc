import { EventDispatcher } from '@milpa/events';
import {
  GovernanceEvents,
  InvocationDecision,
  InvocationHistory,
  MilpaError,
  ToolContext,
  ToolDeniedEvent,
  ToolInvocationDeniedEvent,
  Type,
  defineTool,
  invocationTarget,
  type Invocation,
  type InvocationHistoryStore,
  type InvocationObservation,
  type InvocationRule,
  type TargetResolver,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { InMemoryInvocationHistoryStore } from '../invocation/in-memory-invocation-history-store.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const SECRET_ID = 'note-7f3a-SECRET';

function noteTools(registry: ToolRegistry, handler = vi.fn((args: { id: string }) => ({ deleted: args.id }))) {
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object({ id: Type.String(), folder: Type.Optional(Type.String()) }),
      mutating: true,
      handler,
    }),
  );
  registry.register(
    defineTool({ name: 'read_note', description: 'Read a note', input: Type.Object({ id: Type.String() }), handler: ({ id }) => ({ id }) }),
  );
  return handler;
}

const noteResolver: TargetResolver = {
  resolve: ({ toolName, arguments: args }) =>
    toolName.endsWith('_note') && typeof args['id'] === 'string' ? invocationTarget('note', args['id']) : null,
};

const maxDeletions = (limit: number): InvocationRule => ({
  identifier: 'notes.max_deletions_per_run',
  requiresCompleteHistory: true,
  tools: ['delete_note'],
  evaluate: ({ history }) =>
    history.count({ tool: 'delete_note', outcome: 'executed' }) >= limit
      ? InvocationDecision.deny('too_many_deletions')
      : InvocationDecision.allow(),
});

function setup(options: ToolRegistryOptions = {}) {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher();
  const events: { name: string; event: unknown }[] = [];
  dispatcher.subscribe('tool.*', (name, payload) => {
    events.push({ name, event: payload['event'] });
  });
  const registry = new ToolRegistry({ logger, dispatcher, ...options });
  const handler = noteTools(registry);
  return { registry, logger, events, handler };
}

const web = (runId: string | null = null) => new ToolContext({ principal: 'user:ana', channel: 'web', scopes: ['*'], runId });

function allow(identifier: string, seen?: Invocation[]): InvocationRule {
  return {
    identifier,
    evaluate: (invocation) => {
      seen?.push(invocation);
      return InvocationDecision.allow();
    },
  };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return MilpaError.isInstance(error) ? error.code : 'not a MilpaError';
  }
  return undefined;
}

describe('ToolRegistry', () => {
  describe('rules: registration', () => {
    it.each([
      ['an upper-case identifier', 'Notes.limit'],
      ['a leading digit', '1limit'],
      ['a space', 'notes limit'],
      ['65 characters', `a${'b'.repeat(64)}`],
      ['an empty identifier', ''],
      ['a non-string identifier', 42],
    ])('refuses %s with INVALID_INVOCATION_RULE', (_label, identifier) => {
      const rule = { identifier, evaluate: () => InvocationDecision.allow() } as unknown as InvocationRule;
      expect(codeOf(() => new ToolRegistry({ rules: [rule] }))).toBe('INVALID_INVOCATION_RULE');
    });

    it('accepts an identifier of exactly 64 characters with dots, dashes and underscores', () => {
      const identifier = `a.b-c_${'d'.repeat(58)}`;
      expect(identifier).toHaveLength(64);
      expect(new ToolRegistry({ rules: [allow(identifier)] }).getInvocationRules().map((rule) => rule.identifier)).toEqual([identifier]);
    });

    it('refuses two rules with one identifier, in the options or added later, and adds nothing then', () => {
      expect(codeOf(() => new ToolRegistry({ rules: [allow('same'), allow('same')] }))).toBe('INVALID_INVOCATION_RULE');
      const registry = new ToolRegistry({ rules: [allow('first')] });
      expect(codeOf(() => registry.addInvocationRules(allow('second'), allow('first')))).toBe('INVALID_INVOCATION_RULE');
      expect(registry.getInvocationRules().map((rule) => rule.identifier)).toEqual(['first']);
      registry.addInvocationRules(allow('second'));
      expect(registry.getInvocationRules().map((rule) => rule.identifier)).toEqual(['first', 'second']);
    });

    it(
      'refuses a rule without evaluate, a bad requiresCompleteHistory or ' +
        'tools, a resolver without resolve and a store without its methods',
      () => {
        expect(codeOf(() => new ToolRegistry({ rules: [{ identifier: 'x' } as unknown as InvocationRule] }))).toBe(
          'INVALID_INVOCATION_RULE',
        );
        expect(
          codeOf(() => new ToolRegistry({ rules: [{ ...allow('x'), requiresCompleteHistory: 'yes' } as unknown as InvocationRule] })),
        ).toBe('INVALID_INVOCATION_RULE');
        expect(codeOf(() => new ToolRegistry({ rules: [{ ...allow('x'), tools: [] }] }))).toBe('INVALID_INVOCATION_RULE');
        expect(codeOf(() => new ToolRegistry({ rules: [{ ...allow('x'), tools: 'delete_note' } as unknown as InvocationRule] }))).toBe(
          'INVALID_INVOCATION_RULE',
        );
        expect(codeOf(() => new ToolRegistry({ targetResolvers: [{} as TargetResolver] }))).toBe('INVALID_INVOCATION_RULE');
        expect(codeOf(() => new ToolRegistry({ historyStore: { load: () => null } as unknown as InvocationHistoryStore }))).toBe(
          'INVALID_INVOCATION_RULE',
        );
      },
    );
  });

  describe('rules: evaluation', () => {
    it('behaves exactly as without rules when there are none', async () => {
      const plain = setup();
      const ruled = setup({ rules: [] });
      for (const { registry } of [plain, ruled]) {
        const result = await registry.call('delete_note', { id: 'n1' }, web());
        expect(result.success).toBe(true);
      }
      expect(plain.events.map((entry) => entry.name)).toEqual(ruled.events.map((entry) => entry.name));
      expect(plain.registry.inspect('delete_note', web())?.getStep('rules').presence).toBe('skipped');
    });

    it('runs the rules in registration order until one denies, and never the rest', async () => {
      const order: string[] = [];
      const rule = (identifier: string, deny: boolean): InvocationRule => ({
        identifier,
        evaluate: () => {
          order.push(identifier);
          return deny ? InvocationDecision.deny('stop_here') : InvocationDecision.allow();
        },
      });
      const { registry, handler } = setup({ rules: [rule('a', false), rule('b', true), rule('c', false)] });
      const result = await registry.call('delete_note', { id: 'n1' }, web());
      expect(order).toEqual(['a', 'b']);
      expect(handler).not.toHaveBeenCalled();
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'b', reason: 'stop_here' });
      expect(result.error).toBe("Call to 'delete_note' refused by invocation rule 'b' (reason: stop_here).");
    });

    it('evaluates every rule and executes when all allow', async () => {
      const order: string[] = [];
      const { registry, handler } = setup({
        rules: ['a', 'b', 'c'].map((id) => ({ identifier: id, evaluate: () => (order.push(id), InvocationDecision.allow()) })),
      });
      expect((await registry.call('delete_note', { id: 'n1' }, web())).success).toBe(true);
      expect(order).toEqual(['a', 'b', 'c']);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('evaluates a rule with tools only for those tools', async () => {
      const seen: Invocation[] = [];
      const { registry } = setup({ rules: [{ ...allow('deletes_only', seen), tools: ['delete_note'] }] });
      await registry.call('read_note', { id: 'n1' }, web());
      expect(seen).toHaveLength(0);
      await registry.call('delete_note', { id: 'n1' }, web());
      expect(seen.map((invocation) => invocation.toolName)).toEqual(['delete_note']);
    });

    it('gives a rule the tool, the final frozen arguments, the configuration, the actor and the run', async () => {
      const seen: Invocation[] = [];
      const { registry } = setup({ rules: [allow('observe', seen)], targetResolvers: [noteResolver] });
      const runId = await registry.startRun();
      const context = new ToolContext({ principal: 'svc:notes', actor: 'user:ana', channel: 'web', scopes: ['*'], runId });
      const args = { id: 'n1', folder: 'home' };
      await registry.call('delete_note', args, context);
      const [invocation] = seen;
      expect(invocation?.toolName).toBe('delete_note');
      expect(invocation?.arguments).toEqual(args);
      expect(invocation?.arguments).not.toBe(args);
      expect(Object.isFrozen(invocation?.arguments)).toBe(true);
      expect(invocation?.definition.mutating).toBe(true);
      expect(invocation?.context.actor).toBe('user:ana');
      expect(invocation?.context.principal).toBe('svc:notes');
      expect(invocation?.context.runId).toBe(runId);
      expect(invocation?.target).toEqual({ kind: 'note', id: 'n1' });
      expect(invocation?.history).toMatchObject({ complete: true, length: 0 });
      expect(Object.isFrozen(invocation)).toBe(true);
    });

    it('sees the clamped, validated arguments, not the ones the caller sent', async () => {
      const seen: Invocation[] = [];
      const registry = new ToolRegistry({ rules: [allow('observe', seen)] });
      registry.register(
        defineTool({
          name: 'page',
          description: 'd',
          input: Type.Object({ n: Type.Integer() }),
          clamps: { n: [1, 10] },
          handler: () => 'ok',
        }),
      );
      await registry.call('page', { n: 500 }, web());
      expect(seen[0]?.arguments).toEqual({ n: 10 });
    });

    it('runs after authorization: a caller without the scope is refused before any rule', async () => {
      const rule = vi.fn(() => InvocationDecision.allow());
      const registry = new ToolRegistry({ rules: [{ identifier: 'never', evaluate: rule }] });
      registry.register(defineTool({ name: 'secure', description: 'd', scopes: ['admin'], handler: () => 'ok' }));
      const result = await registry.call('secure', {}, ToolContext.web('user:1', ['read']));
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(result.meta['rule']).toBeUndefined();
      expect(rule).not.toHaveBeenCalled();
    });

    it('evaluates the rules in plan mode too, so a dry run shows the denial', async () => {
      const { registry } = setup({ rules: [{ identifier: 'never', evaluate: () => InvocationDecision.deny('not_today') }] });
      const result = await registry.call('delete_note', { id: 'n1' }, web().asPlan());
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'never', reason: 'not_today' });
    });

    it('waits for an async rule, and a rejection refuses as rule_failed', async () => {
      const { registry, handler } = setup({
        rules: [
          { identifier: 'async_allow', evaluate: async () => InvocationDecision.allow() },
          {
            identifier: 'async_deny',
            evaluate: async ({ arguments: args }) =>
              args['id'] === 'n2' ? InvocationDecision.deny('second_note') : InvocationDecision.allow(),
          },
        ],
      });
      expect((await registry.call('delete_note', { id: 'n1' }, web())).success).toBe(true);
      expect((await registry.call('delete_note', { id: 'n2' }, web())).meta).toMatchObject({ rule: 'async_deny', reason: 'second_note' });
      expect(handler).toHaveBeenCalledTimes(1);
      const rejecting = setup({
        rules: [{ identifier: 'rejects', evaluate: () => Promise.reject(new Error(`lookup of ${SECRET_ID} failed`)) }],
      });
      const result = await rejecting.registry.call('delete_note', { id: SECRET_ID }, web());
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'rejects', reason: 'rule_failed' });
      expect(JSON.stringify(result)).not.toContain(SECRET_ID);
    });

    it('refuses the call with TIMEOUT when the caller aborts while a rule never answers', async () => {
      const { registry, handler } = setup({
        rules: [{ identifier: 'stalls', evaluate: () => new Promise<InvocationDecision>(() => undefined) }],
      });
      const controller = new AbortController();
      const pending = registry.call('delete_note', { id: 'n1' }, web(), { signal: controller.signal });
      controller.abort();
      expect((await pending).meta['code']).toBe('TIMEOUT');
      expect(handler).not.toHaveBeenCalled();
    });
  });

  describe('rules: failures and reason codes', () => {
    const failing: [string, InvocationRule['evaluate']][] = [
      [
        'throws',
        () => {
          throw new Error(`cannot read ${SECRET_ID}`);
        },
      ],
      [
        'throws a non-Error',
        () => {
          throw SECRET_ID;
        },
      ],
      ['gives an invalid reason code', () => InvocationDecision.deny(`Note ${SECRET_ID} is outside`)],
      ['forges a denial with free text', () => ({ allowed: false, reason: `Note ${SECRET_ID}` }) as unknown as InvocationDecision],
      ['answers undefined', () => undefined as unknown as InvocationDecision],
      ['answers true', () => true as unknown as InvocationDecision],
      ['answers a truthy allowed', () => ({ allowed: 1, reason: null }) as unknown as InvocationDecision],
    ];

    it.each(failing)('refuses as rule_failed when the rule %s, without its text anywhere', async (_label, evaluate) => {
      const { registry, handler, logger, events } = setup({ rules: [{ identifier: 'fragile', evaluate }, allow('after')] });
      const result = await registry.call('delete_note', { id: SECRET_ID }, web());
      expect(handler).not.toHaveBeenCalled();
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'fragile', reason: 'rule_failed' });
      expect(JSON.stringify(result)).not.toContain(SECRET_ID);
      for (const line of logger.lines) {
        expect(line.message).not.toContain(SECRET_ID);
        expect(JSON.stringify(line.context)).not.toContain(SECRET_ID);
      }
      const denied = events.find((entry) => entry.name === GovernanceEvents.INVOCATION_DENIED)?.event as ToolInvocationDeniedEvent;
      expect(denied).toMatchObject({ rule: 'fragile', reason: 'rule_failed' });
      expect(JSON.stringify(denied)).not.toContain(SECRET_ID);
    });

    it('logs which kind of error a failing rule threw, for the operator, but not its message', async () => {
      const { registry, logger } = setup({
        rules: [
          {
            identifier: 'typed',
            evaluate: () => {
              throw new TypeError(SECRET_ID);
            },
          },
        ],
      });
      await registry.call('delete_note', { id: 'n1' }, web());
      const [line] = logger.matching("invocation rule 'typed' failed");
      expect(line?.level).toBe('error');
      expect(line?.message).toContain('TypeError');
    });
  });

  describe('rules: denials', () => {
    it('carries the rule and reason in meta, in tool.invocation_denied and in the audit line, never the arguments', async () => {
      const { registry, logger, events } = setup({
        rules: [{ identifier: 'notes.no_delete', evaluate: () => InvocationDecision.deny('read_only_run') }],
        targetResolvers: [noteResolver],
      });
      const runId = await registry.startRun();
      const result = await registry.call('delete_note', { id: SECRET_ID, folder: 'private-folder' }, web(runId));
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.no_delete', reason: 'read_only_run', tool: 'delete_note' });
      expect(JSON.stringify(result.toJSON())).not.toContain('private-folder');
      const denied = events.filter((entry) => entry.name === GovernanceEvents.INVOCATION_DENIED);
      expect(denied).toHaveLength(1);
      const event = denied[0]?.event as ToolInvocationDeniedEvent;
      expect(event).toBeInstanceOf(ToolInvocationDeniedEvent);
      expect(event).toMatchObject({
        name: 'delete_note',
        rule: 'notes.no_delete',
        reason: 'read_only_run',
        target: { kind: 'note', id: SECRET_ID },
      });
      expect(Object.keys(event)).not.toContain('args');
      expect(events.some((entry) => entry.name === 'tool.executing' || entry.name === 'tool.denied')).toBe(false);
      const audit = logger.auditRecords().find((record) => record.outcome === 'invocation_denied');
      expect(audit).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.no_delete', reason: 'read_only_run', run_id: runId, args: null });
      const line = logger.messages('warn').find((message) => message.startsWith('[ToolAudit] INVOCATION_DENIED'));
      expect(line).toContain('rule=notes.no_delete | reason=read_only_run');
      for (const logged of logger.lines) {
        expect(logged.message).not.toContain('private-folder');
        expect(JSON.stringify(logged.context)).not.toContain('private-folder');
      }
    });

    it('dispatches nothing without a dispatcher and still audits the denial', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger, rules: [{ identifier: 'deny_all', evaluate: () => InvocationDecision.deny('closed') }] });
      noteTools(registry);
      const result = await registry.call('delete_note', { id: 'n1' }, web());
      expect(result.meta['reason']).toBe('closed');
      expect(logger.auditRecords().map((record) => record.outcome)).toEqual(['invocation_denied']);
    });
  });

  describe('rules: target resolvers', () => {
    it('gives the rules the one target a resolver claims, and null when none does', async () => {
      const seen: Invocation[] = [];
      const ignoring: TargetResolver = { resolve: () => null };
      const { registry } = setup({ rules: [allow('observe', seen)], targetResolvers: [ignoring, noteResolver] });
      registry.register(defineTool({ name: 'ping', description: 'd', handler: () => 'pong' }));
      await registry.call('read_note', { id: 'n9' }, web());
      await registry.call('ping', {}, web());
      expect(seen.map((invocation) => invocation.target)).toEqual([{ kind: 'note', id: 'n9' }, null]);
    });

    it('refuses a call two resolvers claim, as target_conflict, without running a rule', async () => {
      const rule = vi.fn(() => InvocationDecision.allow());
      const { registry, handler, events } = setup({
        rules: [{ identifier: 'r', evaluate: rule }],
        targetResolvers: [noteResolver, { resolve: () => invocationTarget('page', 1) }],
      });
      const result = await registry.call('delete_note', { id: 'n1' }, web());
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: null, reason: 'target_conflict' });
      expect(result.error).toBe("Call to 'delete_note' refused by target resolution (reason: target_conflict).");
      expect(rule).not.toHaveBeenCalled();
      expect(handler).not.toHaveBeenCalled();
      expect(events.find((entry) => entry.name === GovernanceEvents.INVOCATION_DENIED)?.event).toMatchObject({
        rule: null,
        reason: 'target_conflict',
      });
    });

    it('refuses a conflict even when the claims arrive asynchronously', async () => {
      const { registry } = setup({
        rules: [allow('r')],
        targetResolvers: [{ resolve: async () => invocationTarget('note', 'a') }, { resolve: async () => invocationTarget('note', 'b') }],
      });
      expect((await registry.call('delete_note', { id: 'n1' }, web())).meta['reason']).toBe('target_conflict');
    });

    it.each([
      [
        'throws',
        {
          resolve: () => {
            throw new Error(SECRET_ID);
          },
        },
      ],
      ['rejects', { resolve: () => Promise.reject(new Error(SECRET_ID)) }],
      ['answers a malformed target', { resolve: () => ({ kind: 'Note Kind', id: SECRET_ID }) as never }],
      ['answers an empty id', { resolve: () => ({ kind: 'note', id: '' }) as never }],
    ] as [string, TargetResolver][])('refuses as target_failed when a resolver %s', async (_label, resolver) => {
      const { registry, handler, logger } = setup({ rules: [allow('r')], targetResolvers: [resolver] });
      const result = await registry.call('delete_note', { id: 'n1' }, web());
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: null, reason: 'target_failed' });
      expect(handler).not.toHaveBeenCalled();
      expect(JSON.stringify(logger.lines)).not.toContain(SECRET_ID);
    });

    it('does not ask resolvers when no rule applies and the call belongs to no run', async () => {
      const resolve = vi.fn(() => null);
      const { registry } = setup({ targetResolvers: [{ resolve }] });
      expect((await registry.call('delete_note', { id: 'n1' }, web())).success).toBe(true);
      expect(resolve).not.toHaveBeenCalled();
    });
  });

  describe('rules: history', () => {
    it('opens runs whose empty history is complete, and records tool, outcome and target only', async () => {
      const store = new InMemoryInvocationHistoryStore();
      const { registry } = setup({ historyStore: store, targetResolvers: [noteResolver], rules: [maxDeletions(1)] });
      const runId = await registry.startRun();
      expect(store.load(runId)).toMatchObject({ complete: true, length: 0 });
      await registry.call('delete_note', { id: 'n1', folder: 'private-folder' }, web(runId));
      await registry.call('delete_note', { id: 'n2' }, web(runId));
      await registry.call('read_note', { id: 'n3' }, web(runId));
      await registry.call('no_such_tool', {}, web(runId));
      const history = store.load(runId);
      expect(history?.complete).toBe(true);
      expect(history?.observations).toEqual([
        { tool: 'delete_note', outcome: 'executed', target: { kind: 'note', id: 'n1' } },
        { tool: 'delete_note', outcome: 'invocation_denied', target: { kind: 'note', id: 'n2' } },
        { tool: 'read_note', outcome: 'executed', target: { kind: 'note', id: 'n3' } },
        { tool: 'no_such_tool', outcome: 'not_found', target: null },
      ]);
      for (const observation of history?.observations ?? []) expect(Object.keys(observation).sort()).toEqual(['outcome', 'target', 'tool']);
      expect(JSON.stringify(history)).not.toContain('private-folder');
    });

    it('denies the fourth deletion of a run under a three-per-run rule, and counts runs apart', async () => {
      const { registry, handler } = setup({ rules: [maxDeletions(3)] });
      const run = await registry.startRun();
      const outcomes = [];
      for (let index = 1; index <= 4; index++)
        outcomes.push((await registry.call('delete_note', { id: `n${index}` }, web(run))).meta['reason'] ?? 'ok');
      expect(outcomes).toEqual(['ok', 'ok', 'ok', 'too_many_deletions']);
      const other = await registry.startRun();
      expect((await registry.call('delete_note', { id: 'n5' }, web(other))).success).toBe(true);
      expect(handler).toHaveBeenCalledTimes(4);
    });

    it.each([
      ['has no run', null],
      ['names a run the store does not know', 'run_forged'],
    ])('refuses a rule that requires a complete history when the context %s (history_incomplete)', async (_label, runId) => {
      const evaluate = vi.fn(() => InvocationDecision.allow());
      const { registry, handler } = setup({ rules: [{ identifier: 'strict', requiresCompleteHistory: true, evaluate }] });
      const result = await registry.call('delete_note', { id: 'n1' }, web(runId));
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'strict', reason: 'history_incomplete' });
      expect(evaluate).not.toHaveBeenCalled();
      expect(handler).not.toHaveBeenCalled();
    });

    it('gives a lenient rule the incomplete history and lets it decide', async () => {
      const seen: Invocation[] = [];
      const { registry } = setup({ rules: [allow('lenient', seen)] });
      expect((await registry.call('delete_note', { id: 'n1' }, web('run_unknown'))).success).toBe(true);
      expect(seen[0]?.history.complete).toBe(false);
    });

    it('never makes a run complete by recording calls of an unknown run id', async () => {
      const store = new InMemoryInvocationHistoryStore();
      const { registry } = setup({ historyStore: store, rules: [maxDeletions(3)] });
      await registry.call('read_note', { id: 'n1' }, web('run_forged'));
      expect(store.load('run_forged')).toMatchObject({ complete: false, length: 1 });
      expect((await registry.call('delete_note', { id: 'n1' }, web('run_forged'))).meta['reason']).toBe('history_incomplete');
    });

    it('refuses to reopen a known run, so its history is never reset', async () => {
      const { registry } = setup({ rules: [maxDeletions(1)] });
      const runId = await registry.startRun({ runId: 'run-fixed' });
      expect(runId).toBe('run-fixed');
      await registry.call('delete_note', { id: 'n1' }, web(runId));
      await expect(registry.startRun({ runId })).rejects.toMatchObject({ code: 'RUN_EXISTS' });
      expect((await registry.call('delete_note', { id: 'n2' }, web(runId))).meta['reason']).toBe('too_many_deletions');
      await expect(registry.startRun({ runId: '' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('records nothing for calls outside a run', async () => {
      const store = new InMemoryInvocationHistoryStore();
      const append = vi.spyOn(store, 'append');
      const { registry } = setup({ historyStore: store });
      await registry.call('read_note', { id: 'n1' }, web());
      expect(append).not.toHaveBeenCalled();
    });

    it('works with an async store and fails closed when taking a place in the history fails', async () => {
      const runs = new Map<string, InvocationObservation[]>();
      const asyncStore: InvocationHistoryStore = {
        startRun: async (runId) => (runs.has(runId) ? false : (runs.set(runId, []), true)),
        load: async (runId) => {
          const observations = runs.get(runId);
          return observations === undefined ? null : new InvocationHistory(observations, true);
        },
        append: async (runId, observation) => {
          runs.get(runId)?.push(observation);
        },
        // Sequential calls only: every place is settled before the next is taken.
        reserve: async (runId) => ({ id: 'place', history: new InvocationHistory(runs.get(runId) ?? [], runs.has(runId)) }),
        settle: async (runId, _id, observation) => {
          runs.get(runId)?.push(observation);
        },
      };
      const { registry } = setup({ historyStore: asyncStore, rules: [maxDeletions(1)] });
      const runId = await registry.startRun();
      expect((await registry.call('delete_note', { id: 'n1' }, web(runId))).success).toBe(true);
      expect((await registry.call('delete_note', { id: 'n2' }, web(runId))).meta['reason']).toBe('too_many_deletions');

      const broken = setup({
        historyStore: { ...asyncStore, reserve: () => Promise.reject(new Error('store offline')) },
        rules: [maxDeletions(1)],
      });
      const result = await broken.registry.call('delete_note', { id: 'n1' }, web(runId));
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(broken.handler).not.toHaveBeenCalled();
    });

    it('keeps the result when recording the outcome fails, and logs the failure', async () => {
      const store = new InMemoryInvocationHistoryStore();
      vi.spyOn(store, 'append').mockImplementation(() => {
        throw new Error('disk full');
      });
      const { registry, logger } = setup({ historyStore: store });
      const runId = await registry.startRun();
      expect((await registry.call('read_note', { id: 'n1' }, web(runId))).success).toBe(true);
      expect(logger.messages('error').some((message) => message.includes('invocation history store failed'))).toBe(true);
    });
  });

  describe('rules: confirmation replay', () => {
    function confirmable(options: ToolRegistryOptions) {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger, ...options });
      const handler = vi.fn((args: { id: string }) => ({ deleted: args.id }));
      registry.register(
        defineTool({
          name: 'delete_note',
          description: 'd',
          input: Type.Object({ id: Type.String() }),
          mutating: true,
          requiresConfirmation: true,
          handler,
        }),
      );
      return { registry, handler };
    }

    it('evaluates the redeemed arguments right before execution, not the replay request', async () => {
      const seen: string[] = [];
      const { registry, handler } = confirmable({
        rules: [{ identifier: 'observe', evaluate: ({ arguments: args }) => (seen.push(String(args['id'])), InvocationDecision.allow()) }],
      });
      const first = await registry.call('delete_note', { id: 'n1' }, web());
      expect(first.requiresConfirmation()).toBe(true);
      const replay = await registry.call('delete_note', { id: 'n-other' }, web(), { confirmToken: first.getConfirmToken() as string });
      expect(replay.success).toBe(true);
      expect(seen).toEqual(['n1', 'n1']);
      expect(handler).toHaveBeenCalledWith({ id: 'n1' }, expect.anything());
    });

    it('denies the replay when the run reached its limit after the token was minted', async () => {
      const { registry, handler } = confirmable({ rules: [maxDeletions(1)] });
      const runId = await registry.startRun();
      const first = await registry.call('delete_note', { id: 'n1' }, web(runId));
      const second = await registry.call('delete_note', { id: 'n2' }, web(runId));
      expect(
        (await registry.call('delete_note', { id: 'n1' }, web(runId), { confirmToken: first.getConfirmToken() as string })).success,
      ).toBe(true);
      const late = await registry.call('delete_note', { id: 'n2' }, web(runId), { confirmToken: second.getConfirmToken() as string });
      expect(late.meta).toMatchObject({ code: 'FORBIDDEN', reason: 'too_many_deletions' });
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('shows both rules steps in inspect, the replay one conditional for a confirmable tool', () => {
      const { registry } = confirmable({ rules: [maxDeletions(3)] });
      const plan = registry.inspect('delete_note', web());
      expect(plan?.getStep('rules').presence).toBe('active');
      expect(plan?.getStep('rules_replay').presence).toBe('conditional');
      expect(plan?.getStep('rules_replay').source).toContain('redeemed arguments');
    });
  });

  describe('rules: inspect', () => {
    it("lists each applicable rule's identifier and says whether history completeness can refuse", async () => {
      const { registry } = setup({ rules: [allow('notes.audit_trail'), maxDeletions(3)], targetResolvers: [noteResolver] });
      const outside = registry.inspect('delete_note', web())?.getStep('rules');
      expect(outside?.presence).toBe('active');
      expect(outside?.source).toContain('notes.audit_trail, notes.max_deletions_per_run (requires complete history)');
      expect(outside?.source).toContain('history completeness refuses this call: the context has no run');
      const runId = await registry.startRun();
      expect(registry.inspect('delete_note', web(runId))?.getStep('rules').source).toContain('history completeness can refuse this call');
      const reading = registry.inspect('read_note', web())?.getStep('rules').source;
      expect(reading).toContain('notes.audit_trail');
      expect(reading).not.toContain('max_deletions');
      expect(reading).toContain('history completeness cannot refuse this call');
      expect(registry.inspect('read_note', web(runId))?.getStep('history').presence).toBe('active');
    });
  });

  describe('governance: tool.denied', () => {
    async function deniedBy(options: ToolRegistryOptions, context: ToolContext, scopes: string[] = [], mutating = false) {
      const { registry, events } = setup(options);
      registry.register(defineTool({ name: 'guarded', description: 'd', scopes, mutating, handler: () => 'ok' }));
      const result = await registry.call('guarded', {}, context);
      const denied = events.filter((entry) => entry.name === GovernanceEvents.DENIED).map((entry) => entry.event as ToolDeniedEvent);
      expect(denied).toHaveLength(1);
      expect(denied[0]).toBeInstanceOf(ToolDeniedEvent);
      expect(denied[0]?.message).toBe(result.error);
      expect(events.some((entry) => entry.name === GovernanceEvents.INVOCATION_DENIED)).toBe(false);
      return denied[0]?.reason;
    }

    it('says require_auth for an anonymous caller on a channel that requires a principal', async () => {
      expect(await deniedBy({}, ToolContext.web(null))).toBe('require_auth');
    });

    it('says unknown_channel for an anonymous caller on an unregistered channel', async () => {
      expect(await deniedBy({}, new ToolContext({ channel: 'carrier-pigeon' }))).toBe('unknown_channel');
    });

    it('says missing_scope for a caller without the scope', async () => {
      expect(await deniedBy({}, ToolContext.web('u', ['read']), ['admin'])).toBe('missing_scope');
    });

    it('says block_mutating on a channel that blocks mutating tools', async () => {
      expect(
        await deniedBy(
          { channelPolicies: { kiosk: { block_mutating: true } } },
          new ToolContext({ principal: 'u', channel: 'kiosk' }),
          [],
          true,
        ),
      ).toBe('block_mutating');
    });

    it('says rule_provider for a host policy rule, and rule_provider_failed when the provider throws', async () => {
      const deny = { findMatchingRule: () => ({ id: 1, effect: 'deny', requiresScopes: [], description: null }) };
      expect(await deniedBy({ ruleProvider: deny }, ToolContext.web('u'))).toBe('rule_provider');
      const broken = {
        findMatchingRule: () => {
          throw new Error('db down');
        },
      };
      expect(await deniedBy({ ruleProvider: broken }, ToolContext.web('u'))).toBe('rule_provider_failed');
    });

    it('says rate_limited when the budget is spent', async () => {
      const limiter = {
        consume: () => ({ allowed: false, remaining: 0, retryAfterSeconds: 3, reason: 'slow down' }),
        getUsage: () => 0,
        reset: () => undefined,
      };
      expect(await deniedBy({ rateLimiter: limiter as never }, ToolContext.web('u'))).toBe('rate_limited');
    });

    it('dispatches no governance event for a call that runs, fails validation or is not found', async () => {
      const { registry, events } = setup();
      await registry.call('read_note', { id: 'n1' }, web());
      await registry.call('read_note', { id: 5 }, web());
      await registry.call('nope', {}, web());
      expect(events.filter((entry) => entry.name.startsWith('tool.denied') || entry.name === GovernanceEvents.INVOCATION_DENIED)).toEqual(
        [],
      );
    });
  });
});
