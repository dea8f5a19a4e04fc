import { ToolMessage } from '@langchain/core/messages';
import { MilpaError, ToolContext, Type, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it, vi } from 'vitest';
import { agentContext, notesRegistry } from '../../test/support/notes-registry.js';
import type { GovernedToolRegistry } from '../registry/governed-tool-registry.js';
import { MilpaToolkit } from './milpa-toolkit.js';

function contentOf(message: ToolMessage): Record<string, unknown> {
  return JSON.parse(String(message.content)) as Record<string, unknown>;
}

async function toolNamed(toolkit: MilpaToolkit, name: string, context: ToolContext = agentContext()) {
  const tool = (await toolkit.getTools(context)).find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`${name} is not offered`);
  return tool;
}

describe('MilpaToolkit', () => {
  describe('constructor', () => {
    it.each([
      ['null', null],
      ['a registry without resume', { listToolsFor: (): unknown[] => [], call: (): undefined => undefined }],
      ['a registry without listToolsFor', { call: (): undefined => undefined, resume: (): undefined => undefined }],
    ])('throws INVALID_ARGUMENT for %s', (_label, registry) => {
      expect(() => new MilpaToolkit(registry as unknown as GovernedToolRegistry)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });

    it.each(['interrupt', 'recordDecision'])('throws INVALID_ARGUMENT when option %s is not a function', (option) => {
      const { registry } = notesRegistry();
      expect(() => new MilpaToolkit(registry, { [option]: 'yes' } as never)).toThrow(MilpaError);
    });
  });

  describe('getTools', () => {
    it('holds exactly the tools the context may call, with their JSON Schemas', async () => {
      const { registry } = notesRegistry();
      const toolkit = new MilpaToolkit(registry);

      const reader = await toolkit.getTools(new ToolContext({ principal: 'user:r', channel: 'web', scopes: ['notes:read'] }));
      const admin = await toolkit.getTools(new ToolContext({ principal: 'user:a', channel: 'web', scopes: ['*'] }));

      expect(reader.map((tool) => tool.name)).toEqual(['list_notes']);
      expect(admin.map((tool) => tool.name).sort()).toEqual(['archive_note', 'delete_note', 'edit_note', 'list_notes', 'purge_notes']);
      expect(reader[0]).toMatchObject({
        description: 'List the notes of a folder',
        schema: { type: 'object', properties: { folder: { type: 'string' } }, additionalProperties: false },
      });
      expect(admin.find((tool) => tool.name === 'purge_notes')?.schema).toMatchObject({ type: 'object', properties: {} });
    });

    it('throws INVALID_ARGUMENT without a ToolContext', async () => {
      const toolkit = new MilpaToolkit(notesRegistry().registry);
      await expect(toolkit.getTools({ principal: 'agent:x' } as unknown as ToolContext)).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });
  });

  describe('a call', () => {
    it(
      'is validated by Milpa, not LangChain: ' + "invalid arguments come back as VALIDATION_ERROR with each field's problem, audited",
      async () => {
        const notes = notesRegistry();
        const tool = await toolNamed(new MilpaToolkit(notes.registry), 'delete_note');

        const message = await tool.invoke({ type: 'tool_call', name: 'delete_note', id: 'call_bad', args: { id: 5, extra: true } });

        expect(message).toBeInstanceOf(ToolMessage);
        expect(message).toMatchObject({ status: 'error', tool_call_id: 'call_bad', name: 'delete_note' });
        expect(contentOf(message)).toMatchObject({
          code: 'VALIDATION_ERROR',
          errors: expect.arrayContaining([expect.objectContaining({ path: 'id' })]),
        });
        expect(notes.audit.forRequest('call_bad')).toEqual([expect.objectContaining({ outcome: 'validation_failed' })]);
      },
    );

    it('keeps the whole result as the artifact', async () => {
      const tool = await toolNamed(new MilpaToolkit(notesRegistry().registry), 'list_notes');

      const message = await tool.invoke({ type: 'tool_call', name: 'list_notes', id: 'call_1', args: {} });

      expect(message.artifact).toMatchObject({
        success: true,
        data: { notes: ['n1', 'n2'] },
        meta: { tool: 'list_notes', request_id: 'call_1' },
      });
    });

    it('answers a ToolMessage with a fresh request id when invoked without a tool call', async () => {
      const notes = notesRegistry();
      const tool = await toolNamed(new MilpaToolkit(notes.registry), 'list_notes');

      const message = await tool.invoke({ folder: 'work' });

      expect(message).toMatchObject({ status: 'success', tool_call_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(notes.audit.records).toEqual([expect.objectContaining({ outcome: 'ok', request_id: message.tool_call_id })]);
    });

    it('reports the call to LangChain callbacks with its tool call id', async () => {
      const tool = await toolNamed(new MilpaToolkit(notesRegistry().registry), 'list_notes');
      const handleToolStart = vi.fn();
      const handleToolEnd = vi.fn();

      await tool.invoke(
        { type: 'tool_call', name: 'list_notes', id: 'call_traced', args: {} },
        { callbacks: [{ handleToolStart, handleToolEnd }] },
      );

      expect(handleToolStart).toHaveBeenCalledTimes(1);
      expect(handleToolStart.mock.calls[0]).toContain('call_traced');
      expect(handleToolEnd).toHaveBeenCalledTimes(1);
      expect(handleToolEnd.mock.calls[0]?.[0]).toMatchObject({ tool_call_id: 'call_traced' });
    });

    it('answers a handler that throws with an error ToolMessage, never a throw', async () => {
      const registry = new ToolRegistry();
      registry.register(
        defineTool({
          name: 'flaky',
          description: 'Fails',
          input: Type.Object({}),
          handler: () => {
            throw new Error('disk on fire');
          },
        }),
      );
      const tool = await toolNamed(new MilpaToolkit(registry), 'flaky', ToolContext.cli());

      const message = await tool.invoke({ type: 'tool_call', name: 'flaky', id: 'call_f', args: {} });

      expect(message.status).toBe('error');
      expect(contentOf(message)).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.any(String) });
    });
  });

  describe('abort', () => {
    function slowRegistry() {
      const seen: { aborted: boolean | null } = { aborted: null };
      const registry = new ToolRegistry();
      let markStarted: () => void = () => undefined;
      const started = new Promise<void>((resolve) => {
        markStarted = resolve;
      });
      const handler = vi.fn(async (_args: unknown, { signal }: { signal: AbortSignal }) => {
        markStarted();
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        seen.aborted = signal.aborted;
        return { finished: true };
      });
      registry.register(defineTool({ name: 'slow_export', description: 'Exports slowly', input: Type.Object({}), handler }));
      return { registry, seen, started, handler };
    }

    it('refuses a call whose run is already aborted, without running it, as a ToolMessage', async () => {
      const { registry, handler } = slowRegistry();
      const tool = await toolNamed(new MilpaToolkit(registry), 'slow_export', ToolContext.cli());

      const message = await tool.invoke(
        { type: 'tool_call', name: 'slow_export', id: 'call_s', args: {} },
        { signal: AbortSignal.abort() },
      );

      expect(message.status).toBe('error');
      expect(contentOf(message)).toMatchObject({ code: 'TIMEOUT' });
      expect(handler).not.toHaveBeenCalled();
    });

    it("aborts a running handler's signal when the run aborts", async () => {
      const { registry, seen, started } = slowRegistry();
      const tool = await toolNamed(new MilpaToolkit(registry), 'slow_export', ToolContext.cli());
      const controller = new AbortController();

      const pending = tool.invoke({ type: 'tool_call', name: 'slow_export', id: 'call_s', args: {} }, { signal: controller.signal });
      await started;
      controller.abort();
      const message = await pending;

      expect(seen.aborted).toBe(true);
      expect(message).toBeInstanceOf(ToolMessage);
    });
  });

  describe('when nothing can be reviewed', () => {
    it('refuses a held call with its approval id for people and the host; nothing runs', async () => {
      const notes = notesRegistry();
      const tool = await toolNamed(new MilpaToolkit(notes.registry), 'delete_note');

      const message = await tool.invoke({ type: 'tool_call', name: 'delete_note', id: 'call_d', args: { id: 'n1' } });

      const content = contentOf(message);
      expect(message.status).toBe('error');
      expect(content).toMatchObject({ code: 'APPROVAL_PENDING', approval_id: expect.any(String), expires_at: expect.any(String) });
      expect(content['message']).toContain('calling the tool again does not resume it');
      expect(notes.deleteNote).not.toHaveBeenCalled();
      // The host may still resume it outside the model loop, once someone else approved it.
      await notes.decideAs('user:reviewer')({
        decision: 'approve',
        approvalId: String(content['approval_id']),
        toolCallId: 'call_d',
        toolName: 'delete_note',
        arguments: { id: 'n1' },
        context: agentContext(),
        message: null,
      });
      const resumed = await notes.registry.resume(String(content['approval_id']), agentContext());
      expect(resumed.success).toBe(true);
      expect(notes.deleteNote).toHaveBeenCalledTimes(1);
    });

    it('refuses a call that needs confirmation and never shows the model the token', async () => {
      const notes = notesRegistry();
      const tool = await toolNamed(new MilpaToolkit(notes.registry), 'archive_note');

      const message = await tool.invoke({ type: 'tool_call', name: 'archive_note', id: 'call_a', args: { id: 'n2' } });

      expect(message.status).toBe('error');
      expect(contentOf(message)).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
      expect(JSON.stringify(message.toDict())).not.toContain('confirm_token');
      expect(notes.archiveNote).not.toHaveBeenCalled();
    });

    it('never pauses a call invoked without a tool call id, which no decision could be bound to', async () => {
      const notes = notesRegistry();
      const interrupt = vi.fn();
      const tool = await toolNamed(new MilpaToolkit(notes.registry, { interrupt }), 'delete_note');

      const message = await tool.invoke({ id: 'n1' });

      expect(contentOf(message)).toMatchObject({ code: 'APPROVAL_PENDING' });
      expect(interrupt).not.toHaveBeenCalled();
      expect(notes.deleteNote).not.toHaveBeenCalled();
    });

    it("refuses a confirm_token the model presents, even the caller's own valid one: VALIDATION_ERROR, nothing runs", async () => {
      const notes = notesRegistry();
      const context = agentContext();
      const asked = await notes.registry.call('archive_note', { id: 'n2' }, context);
      const token = asked.getConfirmationRequest()?.token ?? asked.getConfirmToken();
      expect(token).toEqual(expect.any(String));
      const tool = await toolNamed(new MilpaToolkit(notes.registry), 'archive_note', context);

      const message = await tool.invoke({
        type: 'tool_call',
        name: 'archive_note',
        id: 'call_a',
        args: { id: 'n2', confirm_token: token },
      });

      expect(message.status).toBe('error');
      expect(contentOf(message)).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining("'confirm_token'") });
      expect(notes.archiveNote).not.toHaveBeenCalled();
    });

    it.each([
      ['a string confirm_token', { confirm_token: 'a'.repeat(32) }, 'confirm_token'],
      ['a numeric confirm_token', { confirm_token: 7 }, 'confirm_token'],
      ['an object as confirm_token', { confirm_token: { token: 'x' } }, 'confirm_token'],
      ['a string approval_id', { approval_id: 'b'.repeat(32) }, 'approval_id'],
      ['a numeric approval_id', { approval_id: 7 }, 'approval_id'],
      ['an object as approval_id', { approval_id: { id: 'x' } }, 'approval_id'],
    ])('refuses %s the model sends before the registry sees the call; the handler never runs', async (_name, extra, key) => {
      const notes = notesRegistry();
      const tool = await toolNamed(new MilpaToolkit(notes.registry), 'archive_note');

      const message = await tool.invoke({ type: 'tool_call', name: 'archive_note', id: 'call_x', args: { id: 'n2', ...extra } });

      expect(contentOf(message)).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining(`'${key}'`) });
      expect(notes.archiveNote).not.toHaveBeenCalled();
      expect(notes.audit.forRequest('call_x')).toEqual([]);
    });
  });
});
