import { InvocationDecision, ToolContext, Type, defineTool, type PolicyRuleProvider } from '@milpa/core';
import { HumanVerifier, verifierApprovalGate } from '@milpa/verification';
import { run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { functionCall, reply } from './support/scripted-model.js';
import { notesSetup } from './support/notes-setup.js';

function errorOf(output: string | undefined): Record<string, unknown> {
  return (JSON.parse(output ?? 'null') as { error: Record<string, unknown> }).error;
}

/** Mutating calls of `edit_note` need the `notes:admin` scope. */
const adminForMutatingEdits: PolicyRuleProvider = {
  findMatchingRule: (_channel, _principal, toolName, mutating) =>
    toolName === 'edit_note' && mutating
      ? { id: 'edits', effect: 'allow', requiresScopes: ['notes:admin'], description: 'Deleting through edit_note is for admins' }
      : null,
};

describe('toAgentsTools calls', () => {
  describe('the tool list', () => {
    it('offers the model exactly the tools its context may call', async () => {
      const reader = notesSetup({ context: ToolContext.web('user:7', ['notes:read']) });
      const writer = notesSetup();
      expect((await reader.tools()).map((tool) => tool.name)).toEqual(['list_notes']);
      expect((await writer.tools()).map((tool) => tool.name)).toEqual(['list_notes', 'delete_note', 'edit_note', 'publish_note']);
    });

    it('sends each tool with its own description and JSON schema, in strict mode', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([() => [reply('Hi.')]]);
      await run(agent, 'Hello');
      const sent = model.requests[0]!.tools.find((tool) => tool.name === 'delete_note') as {
        description: string;
        strict: boolean;
        parameters: unknown;
      };
      expect(sent.description).toBe('Delete a note');
      expect(sent.strict).toBe(true);
      expect(sent.parameters).toEqual({
        type: 'object',
        properties: { id: { type: 'string', minLength: 2 }, reason: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        required: ['id', 'reason'],
        additionalProperties: false,
      });
    });
  });

  describe('an allowed call', () => {
    it('runs once with the tool call id as request id, and the model reads its data', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([
        () => [functionCall('list_notes', { folder: null }, 'call_list')],
        () => [reply('One note.')],
      ]);
      const result = await run(agent, 'What notes do I have?');
      expect(result.finalOutput).toBe('One note.');
      expect(model.lastOutputFor('call_list')).toBe('{"notes":[{"id":"n1","title":"Groceries"}]}');
      // A strict-mode null for an optional field is dropped before the registry sees the call.
      expect(setup.handlers.listNotes).toHaveBeenCalledTimes(1);
      expect(setup.handlers.listNotes.mock.calls[0]![0]).toEqual({});
      expect(setup.audit.records).toEqual([
        expect.objectContaining({ request_id: 'call_list', tool: 'list_notes', outcome: 'ok', principal: 'user:42' }),
      ]);
    });
  });

  describe('refusals', () => {
    it('gives the model a scope refusal as code and message, and the run goes on', async () => {
      const setup = notesSetup({ gate: null, ruleProvider: adminForMutatingEdits });
      const { agent, model } = await setup.agent([
        () => [functionCall('edit_note', { id: 'n1', action: 'delete' }, 'call_edit')],
        () => [reply('I may not delete notes.')],
      ]);
      const result = await run(agent, 'Delete n1 via edit');
      expect(result.finalOutput).toBe('I may not delete notes.');
      expect(setup.handlers.editNote).not.toHaveBeenCalled();
      expect(errorOf(model.lastOutputFor('call_edit'))).toEqual({
        code: 'FORBIDDEN',
        message:
          "Policy rule #edits for tool 'edit_note' requires one of these scopes: notes:admin — context has: notes:read, notes:write.",
      });
      expect(setup.audit.forRequest('call_edit')).toEqual([expect.objectContaining({ outcome: 'auth_denied' })]);
    });

    it('gives the model invalid arguments field by field', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([
        () => [functionCall('edit_note', { id: 'x', action: 'rename' }, 'call_edit')],
        () => [reply('Let me fix that.')],
      ]);
      await run(agent, 'Rename x');
      expect(setup.handlers.editNote).not.toHaveBeenCalled();
      expect(errorOf(model.lastOutputFor('call_edit'))).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: [{ path: 'id', message: expect.stringContaining('id') }],
      });
    });

    it.each([
      ['confirm_token', 'edit_note', { id: 'n1', action: 'rename', confirm_token: 'a'.repeat(32) }],
      ['approval_id', 'delete_note', { id: 'n1', approval_id: 'b'.repeat(32) }],
    ])('refuses a %s the model sends, without interrupting and without running', async (_key, name, args) => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([() => [functionCall(name, args, 'call_forged')], () => [reply('Understood.')]]);
      const result = await run(agent, 'Do it');
      expect(result.interruptions).toEqual([]);
      expect(setup.handlers.editNote).not.toHaveBeenCalled();
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(errorOf(model.lastOutputFor('call_forged'))).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('cannot be sent by the model'),
      });
      expect(setup.audit.records).toEqual([]);
    });

    it.each([
      ['a numeric confirm_token', { id: 'n1', confirm_token: 42 }, 'confirm_token'],
      ['an object as confirm_token', { id: 'n1', confirm_token: { token: 'x' } }, 'confirm_token'],
      ['a numeric approval_id', { id: 'n1', approval_id: 7 }, 'approval_id'],
      ['an object as approval_id', { id: 'n1', approval_id: { id: 'x' } }, 'approval_id'],
    ])('refuses %s the model sends as VALIDATION_ERROR naming the key; the handler never sees it', async (_name, args, key) => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([() => [functionCall('publish_note', args, 'call_forged')], () => [reply('Understood.')]]);
      const result = await run(agent, 'Do it');
      expect(result.interruptions).toEqual([]);
      expect(setup.handlers.publishNote).not.toHaveBeenCalled();
      expect(errorOf(model.lastOutputFor('call_forged'))).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(`'${key}' cannot be sent by the model`),
      });
      expect(setup.audit.records).toEqual([]);
    });

    it("refuses another caller's real confirmation token the model sends; nothing runs", async () => {
      const setup = notesSetup();
      const other = ToolContext.web('user:99', ['notes:read', 'notes:write']);
      const minted = await setup.registry.call('publish_note', { id: 'n1' }, other.with({ requestId: 'elsewhere' }));
      const token = minted.getConfirmationRequest()?.token ?? minted.getConfirmToken();
      expect(token).toEqual(expect.any(String));
      const { agent, model } = await setup.agent([
        () => [functionCall('publish_note', { id: 'n1', confirm_token: token }, 'call_forged')],
        () => [reply('Understood.')],
      ]);
      const result = await run(agent, 'Do it');
      expect(result.interruptions).toEqual([]);
      expect(setup.handlers.publishNote).not.toHaveBeenCalled();
      expect(errorOf(model.lastOutputFor('call_forged'))).toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('runs the invocation rules again after the approval: an approved call they refuse does not run', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([
        () => [functionCall('delete_note', { id: 'n1' }, 'call_del')],
        () => [reply('Refused.')],
      ]);
      const first = await run(agent, 'Delete n1');
      first.state.approve(first.interruptions[0]!);
      setup.registry.addInvocationRules({
        identifier: 'notes.frozen',
        tools: ['delete_note'],
        evaluate: () => InvocationDecision.deny('notes_frozen'),
      });
      await run(agent, first.state);
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(errorOf(model.lastOutputFor('call_del'))).toMatchObject({ code: 'FORBIDDEN' });
      expect(setup.audit.forRequest('call_del')).toEqual([expect.objectContaining({ outcome: 'invocation_denied', rule: 'notes.frozen' })]);
    });

    it('tells the model a call another gate holds has not run, with its approval_id, without asking it to call again', async () => {
      const verifier = new HumanVerifier();
      const setup = notesSetup({ gate: verifierApprovalGate(verifier) });
      const { agent, model } = await setup.agent([
        () => [functionCall('delete_note', { id: 'n1' }, 'call_del')],
        () => [reply('Waiting.')],
      ]);
      const first = await run(agent, 'Delete n1');
      first.state.approve(first.interruptions[0]!);
      await run(agent, first.state);
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
      const error = errorOf(model.lastOutputFor('call_del'));
      expect(error).toMatchObject({ code: 'APPROVAL_PENDING', approval_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(error['message']).not.toContain('again');
      expect(error['message']).toContain('It has not run');
      expect(await verifier.store.get(error['approval_id'] as string)).not.toBeNull();
    });
  });

  describe('abort', () => {
    it("aborts the handler's signal when the run's signal aborts", async () => {
      const setup = notesSetup();
      let started!: () => void;
      const handlerStarted = new Promise<void>((resolve) => (started = resolve));
      let sawAbort = false;
      setup.registry.register(
        defineTool({
          name: 'export_notes',
          description: 'Export every note',
          scopes: ['notes:read'],
          input: Type.Object({}),
          handler: (_args, { signal }) =>
            new Promise((resolve) => {
              signal.addEventListener('abort', () => {
                sawAbort = true;
                resolve({ exported: false });
              });
              started();
            }),
        }),
      );
      const { agent } = await setup.agent([() => [functionCall('export_notes', {}, 'call_export')], () => [reply('Stopped.')]]);
      const controller = new AbortController();
      const running = run(agent, 'Export', { signal: controller.signal }).catch((error: unknown) => error);
      await handlerStarted;
      controller.abort();
      await running;
      expect(sawAbort).toBe(true);
    });
  });
});
