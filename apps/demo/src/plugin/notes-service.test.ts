import { ToolContext } from '@milpa/core';
import type { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';

const cli = (): ToolContext => ToolContext.cli('test');

/** A cli caller in a freshly opened run: a deletion must belong to a run the registry knows. */
async function cliInRun(registry: ToolRegistry): Promise<ToolContext> {
  return cli().with({ runId: await registry.startRun() });
}

describe('NotesService', () => {
  describe('list_notes', () => {
    it('returns the first page of three with pagination when called without arguments', async () => {
      const { registry } = await createDemoRuntime();
      const result = await registry.call('list_notes', {}, cli());
      expect(result.success).toBe(true);
      expect(result.data).toEqual([
        { id: 1, title: 'Plant the milpa', pinned: true },
        { id: 2, title: 'Sow beans beside the maize', pinned: false },
        { id: 3, title: 'Squash shades the soil', pinned: false },
      ]);
      expect(result.getPagination()).toEqual({ page: 1, total_pages: 2, total_items: 5, limit: 3, has_prev: false, has_next: true });
    });

    it('clamps per_page to 3 instead of rejecting it when it is too large', async () => {
      const { registry } = await createDemoRuntime();
      const result = await registry.call('list_notes', { per_page: 50, page: 2 }, cli());
      expect(result.success).toBe(true);
      expect(result.getPagination()).toMatchObject({ page: 2, limit: 3 });
      expect((result.data as unknown[]).length).toBe(2);
    });

    it('lists only the notes with a tag when given one', async () => {
      const { registry } = await createDemoRuntime();
      const result = await registry.call('list_notes', { tag: 'maize' }, cli());
      expect(result.data).toEqual([{ id: 4, title: 'Save seed from the best ears', pinned: false }]);
      expect(result.getPagination()).toMatchObject({ total_items: 1, total_pages: 1 });
    });

    it(
      'tidies what a model sends: a numeric string converted, ' + 'a blank per_page and a "*" tag dropped, each listed in meta.tidied',
      async () => {
        const { registry } = await createDemoRuntime();
        const result = await registry.call('list_notes', { page: '2', per_page: ' ', tag: '*' }, cli());
        expect(result.success).toBe(true);
        expect(result.getPagination()).toMatchObject({ page: 2, limit: 3, total_items: 5 });
        expect(result.meta['tidied']).toEqual([
          { field: 'page', action: 'converted' },
          { field: 'per_page', action: 'dropped' },
          { field: 'tag', action: 'dropped' },
        ]);
      },
    );

    it('rejects the same arguments, or finds no note, when tidying is off', async () => {
      const { registry } = await createDemoRuntime({ tidyArguments: false });
      const page = await registry.call('list_notes', { page: '0' }, cli());
      expect(page.getCode()).toBe('VALIDATION_ERROR');
      expect(page.meta['tidied']).toBeUndefined();
      const anyTag = await registry.call('list_notes', { tag: '*' }, cli());
      expect(anyTag.data).toEqual([]);
    });

    it('rejects a per_page of the wrong type with its field named', async () => {
      const { registry } = await createDemoRuntime();
      const result = await registry.call('list_notes', { per_page: 'many' }, cli());
      expect(result.getCode()).toBe('VALIDATION_ERROR');
      expect(result.meta['errors']).toEqual([{ path: 'per_page', message: expect.stringContaining('Expected integer') }]);
    });
  });

  describe('get_note', () => {
    it('returns the note as a detail with a delete action', async () => {
      const { registry } = await createDemoRuntime();
      const result = await registry.call('get_note', { id: 4 }, cli());
      expect(result.getType()).toBe('detail');
      expect(result.data).toMatchObject({ id: 4, title: 'Save seed from the best ears', tags: ['maize', 'seed'] });
      expect(result.getActions()).toEqual(['delete_note']);
    });

    it('returns NOT_FOUND for an unknown id', async () => {
      const { registry } = await createDemoRuntime();
      const result = await registry.call('get_note', { id: 99 }, cli());
      expect(result.getCode()).toBe('NOT_FOUND');
      expect(result.error).toBe('No note with id 99.');
    });
  });

  describe('create_note', () => {
    it('stores the note under the next id', async () => {
      const { registry, notes } = await createDemoRuntime();
      const result = await registry.call('create_note', { title: 'Rotate the plot', tags: ['field'] }, cli());
      expect(result.message).toBe('Note #6 created');
      expect(notes.find(6)).toEqual({ id: 6, title: 'Rotate the plot', body: '', tags: ['field'], pinned: false, folder: 'field' });
    });

    it('refuses an unknown property and stores nothing', async () => {
      const { registry, notes } = await createDemoRuntime();
      const result = await registry.call('create_note', { title: 'x', pinned: true }, cli());
      expect(result.error).toBe('Unknown property: pinned');
      expect(notes.size).toBe(5);
    });
  });

  describe('all', () => {
    it('lists every note in id order, and no longer a deleted one', async () => {
      const { registry, notes } = await createDemoRuntime();
      expect(notes.all().map((note) => note.id)).toEqual([1, 2, 3, 4, 5]);
      await registry.call('delete_note', { id: 3 }, await cliInRun(registry));
      expect(notes.all().map((note) => note.title)).toEqual([
        'Plant the milpa',
        'Sow beans beside the maize',
        'Save seed from the best ears',
        'Harvest before the rains',
      ]);
    });
  });

  describe('delete_note', () => {
    it('deletes an unpinned note on cli without asking for confirmation', async () => {
      const { registry, notes } = await createDemoRuntime();
      const result = await registry.call('delete_note', { id: 2 }, await cliInRun(registry));
      expect(result.data).toEqual({ deleted: 2, title: 'Sow beans beside the maize' });
      expect(notes.find(2)).toBeNull();
    });

    it('asks for confirmation on telegram and deletes on the replay with the token', async () => {
      const { registry, notes } = await createDemoRuntime();
      const telegram = new ToolContext({
        channel: 'telegram',
        principal: 'tg:ana',
        scopes: ['notes:write'],
        runId: await registry.startRun(),
      });
      const ask = await registry.call('delete_note', { id: 2 }, telegram);
      expect(ask.getConfirmToken()).toMatch(/^[0-9a-f]{32}$/);
      expect(notes.size).toBe(5);
      const done = await registry.call('delete_note', { id: 2 }, telegram, { confirmToken: ask.getConfirmToken() as string });
      expect(done.success).toBe(true);
      expect(notes.find(2)).toBeNull();
    });

    it('returns NOT_FOUND for an unknown id', async () => {
      const { registry } = await createDemoRuntime();
      expect((await registry.call('delete_note', { id: 42 }, await cliInRun(registry))).getCode()).toBe('NOT_FOUND');
    });
  });
});
