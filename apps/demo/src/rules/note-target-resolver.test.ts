import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';
import { noteTargetResolver } from './note-target-resolver.js';

function resolve(toolName: string, args: Record<string, unknown>) {
  return noteTargetResolver.resolve({ toolName, arguments: args } as Parameters<typeof noteTargetResolver.resolve>[0]);
}

describe('noteTargetResolver', () => {
  describe('resolve', () => {
    it('names the note of get_note and delete_note by its id', () => {
      expect(resolve('get_note', { id: 4 })).toEqual({ kind: 'note', id: '4' });
      expect(resolve('delete_note', { id: 12 })).toEqual({ kind: 'note', id: '12' });
    });

    it('leaves other tools and ids that are not whole numbers unclaimed', () => {
      expect(resolve('list_notes', { page: 2 })).toBeNull();
      expect(resolve('lookup_crop', { id: 3 })).toBeNull();
      expect(resolve('get_note', { id: '4' })).toBeNull();
    });

    it("records each note call's target in its run's history", async () => {
      const { registry } = await createDemoRuntime();
      const runId = await registry.startRun();
      await registry.call('get_note', { id: 2 }, ToolContext.cli().with({ runId }));
      await registry.call('list_notes', {}, ToolContext.cli().with({ runId }));
      expect((await registry.getHistoryStore().load(runId))?.observations).toEqual([
        { tool: 'get_note', outcome: 'executed', target: { kind: 'note', id: '2' } },
        { tool: 'list_notes', outcome: 'executed', target: null },
      ]);
    });
  });
});
