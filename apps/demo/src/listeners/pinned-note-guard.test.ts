import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';

describe('PinnedNoteGuard', () => {
  describe('tool.executing', () => {
    it('vetoes deleting a pinned note, even for the cli, and the note stays', async () => {
      const { registry, notes, guard, logger } = await createDemoRuntime();
      await registry.startRun({ runId: 'run-1' });
      const result = await registry.call('delete_note', { id: 1 }, ToolContext.cli('r1').with({ runId: 'run-1' }));
      expect(result.isBlocked()).toBe(true);
      expect(result.error).toBe('Tool execution vetoed by an event listener');
      expect(notes.find(1)).not.toBeNull();
      expect(guard.vetoes).toBe(1);
      expect(logger.auditLines()).toEqual([
        '[ToolAudit] VETOED | r1 | cli | delete_note | cli | reason=Tool execution vetoed by an event listener',
      ]);
    });

    it('lets an unpinned note be deleted', async () => {
      const { registry, guard } = await createDemoRuntime();
      expect((await registry.call('delete_note', { id: 5 }, ToolContext.cli().with({ runId: await registry.startRun() }))).success).toBe(
        true,
      );
      expect(guard.vetoes).toBe(0);
    });

    it('is not reached by a caller the scopes already refused', async () => {
      const { registry, guard } = await createDemoRuntime();
      const result = await registry.call('delete_note', { id: 1 }, ToolContext.mcp('r1', 'agent:reader', ['notes:read']));
      expect(result.getCode()).toBe('FORBIDDEN');
      expect(guard.vetoes).toBe(0);
    });
  });
});
