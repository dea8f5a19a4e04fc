import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';
import { MAX_DELETIONS_PER_RUN, maxDeletionsPerRunRule } from './max-deletions-per-run-rule.js';

describe('maxDeletionsPerRunRule', () => {
  it('is registered for delete_note only and requires a complete history', async () => {
    const { registry } = await createDemoRuntime();
    expect(registry.getInvocationRules()).toContainEqual({
      identifier: 'notes.max_deletions_per_run',
      requiresCompleteHistory: true,
      tools: ['delete_note'],
    });
    expect(maxDeletionsPerRunRule.identifier).toBe('notes.max_deletions_per_run');
    expect(MAX_DELETIONS_PER_RUN).toBe(3);
  });

  describe('evaluate', () => {
    it('allows three deletions in a run and refuses the fourth as too_many_deletions, leaving the note', async () => {
      const { registry, notes } = await createDemoRuntime();
      const runId = await registry.startRun();
      const agent = (): ToolContext => ToolContext.mcp('r', 'agent:pruner', ['notes:write']).with({ runId });
      for (const id of [2, 3, 5]) expect((await registry.call('delete_note', { id }, agent())).success).toBe(true);
      const fourth = await registry.call('delete_note', { id: 4 }, ToolContext.cli().with({ runId }));
      expect(fourth.getCode()).toBe('FORBIDDEN');
      expect(fourth.error).toBe(
        "Call to 'delete_note' refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions).",
      );
      expect(fourth.meta).toMatchObject({ rule: 'notes.max_deletions_per_run', reason: 'too_many_deletions' });
      expect(notes.find(4)).not.toBeNull();
    });

    it('counts the deletions the handler ran, a NOT_FOUND answer included, and not the vetoed ones', async () => {
      const { registry } = await createDemoRuntime();
      const runId = await registry.startRun();
      const cli = (): ToolContext => ToolContext.cli().with({ runId });
      expect((await registry.call('delete_note', { id: 1 }, cli())).isBlocked()).toBe(true); // pinned: vetoed
      expect((await registry.call('delete_note', { id: 42 }, cli())).getCode()).toBe('NOT_FOUND');
      const history = await registry.getHistoryStore().load(runId);
      expect(history?.observations.map((observation) => observation.outcome)).toEqual(['vetoed', 'executed']);
      expect((await registry.call('delete_note', { id: 2 }, cli())).success).toBe(true);
      expect((await registry.call('delete_note', { id: 3 }, cli())).success).toBe(true);
      expect((await registry.call('delete_note', { id: 5 }, cli())).meta).toMatchObject({ reason: 'too_many_deletions' });
    });

    it('refuses a deletion in no run, or in a run the store never opened, as history_incomplete', async () => {
      const { registry, notes } = await createDemoRuntime();
      for (const context of [ToolContext.cli(), ToolContext.cli().with({ runId: 'run-forged' })]) {
        const result = await registry.call('delete_note', { id: 2 }, context);
        expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.max_deletions_per_run', reason: 'history_incomplete' });
      }
      expect(notes.find(2)).not.toBeNull();
    });

    it('leaves the other tools alone outside a run', async () => {
      const { registry } = await createDemoRuntime();
      expect((await registry.call('create_note', { title: 'Rotate the plot' }, ToolContext.cli())).success).toBe(true);
      expect((await registry.call('get_note', { id: 2 }, ToolContext.cli())).success).toBe(true);
    });
  });
});
