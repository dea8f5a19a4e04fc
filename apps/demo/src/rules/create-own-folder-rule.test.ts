import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { NotesService } from '../plugin/notes-service.js';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';
import { callerFolder } from './caller-folder.js';
import { createOwnFolderRule } from './create-own-folder-rule.js';

const mcp = (principal: string): ToolContext => ToolContext.mcp('r', principal, ['notes:read', 'notes:write']);

describe('createOwnFolderRule', () => {
  it('is registered for the note tools, before the deletion limit, without a history requirement', async () => {
    const { registry } = await createDemoRuntime();
    expect(registry.getInvocationRules()[0]).toEqual({
      identifier: 'notes.own_folder',
      requiresCompleteHistory: false,
      tools: ['get_note', 'delete_note'],
    });
  });

  describe('evaluate', () => {
    it("refuses a note outside the caller's folder as outside_folder, in a run or not", async () => {
      const { registry, notes } = await createDemoRuntime();
      const read = await registry.call('get_note', { id: 4 }, mcp('agent:pruner'));
      expect(read.error).toBe("Call to 'get_note' refused by invocation rule 'notes.own_folder' (reason: outside_folder).");
      expect(read.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.own_folder', reason: 'outside_folder' });
      const runId = await registry.startRun();
      const deletion = await registry.call('delete_note', { id: 4 }, mcp('agent:pruner').with({ runId }));
      expect(deletion.meta).toMatchObject({ rule: 'notes.own_folder', reason: 'outside_folder' });
      expect(notes.find(4)).not.toBeNull();
    });

    it('allows a note in the caller folder, and every note to the local operators', async () => {
      const { registry } = await createDemoRuntime();
      expect((await registry.call('get_note', { id: 2 }, mcp('agent:pruner'))).success).toBe(true);
      expect((await registry.call('get_note', { id: 4 }, mcp('agent:storekeeper'))).success).toBe(true);
      expect((await registry.call('get_note', { id: 2 }, mcp('agent:storekeeper'))).meta).toMatchObject({ reason: 'outside_folder' });
      expect((await registry.call('get_note', { id: 4 }, ToolContext.cli())).success).toBe(true);
      expect((await registry.call('get_note', { id: 4 }, ToolContext.stdio('r'))).success).toBe(true);
    });

    it('lets an id with no note through to the tool, which answers NOT_FOUND', async () => {
      const { registry } = await createDemoRuntime();
      expect((await registry.call('get_note', { id: 99 }, mcp('agent:pruner'))).getCode()).toBe('NOT_FOUND');
    });

    it('refuses an anonymous caller, who has no folder, and a call without a note target', () => {
      const rule = createOwnFolderRule(new NotesService());
      const invocation = (target: { kind: string; id: string } | null, principal: string | null) =>
        rule.evaluate({ target, context: new ToolContext({ channel: 'telegram', principal }) } as Parameters<typeof rule.evaluate>[0]);
      expect(invocation({ kind: 'note', id: '2' }, null)).toMatchObject({ allowed: false, reason: 'outside_folder' });
      expect(invocation(null, 'agent:pruner')).toMatchObject({ allowed: false, reason: 'no_target' });
      expect(invocation({ kind: 'note', id: '2' }, 'agent:pruner')).toMatchObject({ allowed: true });
    });
  });
});

describe('callerFolder', () => {
  it('gives the operators every folder, named callers their folder or the shared one, anonymous none', () => {
    expect(callerFolder('cli')).toBe('*');
    expect(callerFolder('stdio')).toBe('*');
    expect(callerFolder('agent:storekeeper')).toBe('granary');
    expect(callerFolder('agent:pruner')).toBe('field');
    expect(callerFolder('constructor')).toBe('field'); // a plain lookup would find Object.prototype's
    expect(callerFolder(null)).toBeNull();
    expect(callerFolder('')).toBeNull();
  });
});
