import { ToolContext, Type, defineTool, type ApprovalStore } from '@milpa/core';
import { InMemoryApprovalStore, ToolRegistry } from '@milpa/tool-runtime';
import { Agent, RunContext, RunToolApprovalItem, run } from '@openai/agents';
import { describe, expect, it, vi } from 'vitest';
import { functionCall, reply, ScriptedModel } from '../../test/support/scripted-model.js';
import { notesSetup } from '../../test/support/notes-setup.js';
import type { AgentsToolRegistry } from '../registry/agents-tool-registry.js';
import { toAgentsTools } from './to-agents-tools.js';

const context = ToolContext.web('user:42', ['notes:read', 'notes:write']);

function errorOf(output: string | undefined): Record<string, unknown> {
  return (JSON.parse(output ?? 'null') as { error: Record<string, unknown> }).error;
}

/** A registry-shaped object with only the methods the adapter needs, delegating to a real registry. */
function plainRegistry(registry: ToolRegistry, store: ApprovalStore): AgentsToolRegistry {
  return {
    register: (definition) => registry.register(definition),
    has: (name) => registry.has(name),
    getDefinition: (name) => registry.getDefinition(name),
    listToolsFor: (caller) => registry.listToolsFor(caller),
    call: (name, args, caller, options) => registry.call(name, args, caller, options),
    getApprovalStore: () => store,
  };
}

describe('toAgentsTools', () => {
  describe('arguments', () => {
    it.each([
      [
        'a registry without governed calls',
        () => toAgentsTools({ register() {}, has: () => false } as never, context),
        'toAgentsTools needs a registry with listToolsFor(), call() and getDefinition()',
      ],
      [
        'a context that is not a ToolContext',
        () => toAgentsTools(new ToolRegistry(), { principal: 'x' } as never),
        'toAgentsTools needs a ToolContext',
      ],
      [
        'a TTL of 0',
        () => toAgentsTools(new ToolRegistry(), context, { approvalTtlSeconds: 0 }),
        'approvalTtlSeconds must be a whole number of seconds >= 1, got 0.',
      ],
      [
        'an unknown strict mode',
        () => toAgentsTools(new ToolRegistry(), context, { strict: true as never }),
        "strict must be 'auto' or false, got true.",
      ],
      [
        'a logger without warn()',
        () => toAgentsTools(new ToolRegistry(), context, { logger: {} as never }),
        'logger must have a warn() method.',
      ],
      [
        'no approval store',
        () => toAgentsTools({ ...plainRegistry(new ToolRegistry(), new InMemoryApprovalStore()), getApprovalStore: undefined }, context),
        'toAgentsTools needs an approval store',
      ],
    ])('rejects with INVALID_ARGUMENT for %s', async (_name, build, message) => {
      await expect(build()).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(message) });
    });
  });

  describe('parameters', () => {
    it('sends an open schema as it is, non-strict, and every schema non-strict when asked', async () => {
      const registry = new ToolRegistry();
      registry.register(
        defineTool({
          name: 'tag_note',
          description: 'Tag a note',
          input: Type.Object({ labels: Type.Record(Type.String(), Type.String()) }),
          handler: () => null,
        }),
      );
      registry.register(
        defineTool({ name: 'get_note', description: 'Get a note', input: Type.Object({ id: Type.String() }), handler: () => null }),
      );
      const [tag, get] = await toAgentsTools(registry, context);
      expect(tag).toMatchObject({
        strict: false,
        parameters: { type: 'object', properties: { labels: { type: 'object', patternProperties: { '^.*$': { type: 'string' } } } } },
      });
      expect(get).toMatchObject({ strict: true });
      const [, nonStrict] = await toAgentsTools(registry, context, { strict: false });
      expect(nonStrict).toMatchObject({
        strict: false,
        parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      });
    });
  });

  describe('needsApproval', () => {
    it('asks the person about every mutating call when the registry cannot explain its plan', async () => {
      const setup = notesSetup({ gate: null });
      const store = new InMemoryApprovalStore();
      const registry = plainRegistry(setup.registry, store);
      const model = new ScriptedModel([() => [functionCall('delete_note', { id: 'n1' }, 'call_del')], () => [reply('Deleted.')]]);
      const agent = new Agent({ name: 'notes', model, tools: await toAgentsTools(registry, setup.context) });
      const first = await run(agent, 'Delete n1');
      expect(first.interruptions.map((item) => item.name)).toEqual(['delete_note']);
      first.state.approve(first.interruptions[0]!);
      await run(agent, first.state);
      expect(setup.handlers.deleteNote).toHaveBeenCalledTimes(1);
    });

    it('interrupts and then refuses, fail-closed, when the approval store fails', async () => {
      const failing: ApprovalStore = {
        open: () => Promise.reject(new Error('disk full')),
        get: () => Promise.reject(new Error('disk full')),
        redeem: () => Promise.reject(new Error('disk full')),
      };
      const setup = notesSetup();
      const { agent, model } = await setup.agent(
        [() => [functionCall('delete_note', { id: 'n1' }, 'call_del')], () => [reply('Failed.')]],
        { approvalStore: failing },
      );
      const first = await run(agent, 'Delete n1');
      expect(first.interruptions).toHaveLength(1);
      first.state.approve(first.interruptions[0]!);
      await run(agent, first.state);
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(errorOf(model.lastOutputFor('call_del'))).toMatchObject({
        code: 'APPROVAL_DENIED',
        message: expect.stringContaining('fail-closed'),
      });
    });

    it('refuses, readable, an approved call that comes back after its held call expired', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const setup = notesSetup();
        const { agent, model } = await setup.agent(
          [() => [functionCall('delete_note', { id: 'n1' }, 'call_del')], () => [reply('Too late.')]],
          { approvalTtlSeconds: 60 },
        );
        const first = await run(agent, 'Delete n1');
        first.state.approve(first.interruptions[0]!);
        vi.setSystemTime(Date.now() + 61_000);
        await run(agent, first.state);
        expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
        expect(errorOf(model.lastOutputFor('call_del'))).toMatchObject({ code: 'APPROVAL_INVALID', approval_refusal: 'expired' });
      } finally {
        vi.useRealTimers();
      }
    });
    it('holds nothing when asked again about a call the run approved, so another caller resuming it cannot run it', async () => {
      const store = new InMemoryApprovalStore();
      const origin = notesSetup({ approvalStore: store });
      const other = notesSetup({ approvalStore: store, context: origin.context.with({ principal: 'user:99' }) });
      const deleteNoteOf = async (setup: typeof origin) => (await setup.tools()).find((tool) => tool.name === 'delete_note')!;
      const call = functionCall('delete_note', { id: 'n1' }, 'call_del');
      // The SDK hands needsApproval the parsed arguments (its type says the raw JSON string).
      const args = { id: 'n1' } as never;
      const runContext = new RunContext();
      expect(await (await deleteNoteOf(origin)).needsApproval(runContext, args, 'call_del')).toBe(true);
      runContext.approveTool(new RunToolApprovalItem(call as never, new Agent({ name: 'notes' })));

      // What the SDK does when a saved, approved run resumes with another process's tools.
      const elsewhere = await deleteNoteOf(other);
      expect(await elsewhere.needsApproval(runContext, args, 'call_del')).toBe(true);
      const output = await elsewhere.invoke(runContext, '{"id":"n1"}', { toolCall: call as never });
      expect(errorOf(output as string)).toMatchObject({ code: 'APPROVAL_INVALID', approval_refusal: 'not_found' });
      expect(other.handlers.deleteNote).not.toHaveBeenCalled();

      const approved = await (await deleteNoteOf(origin)).invoke(runContext, '{"id":"n1"}', { toolCall: call as never });
      expect(approved).toBe('{"deleted":"n1"}');
    });
  });

  describe('execute', () => {
    it('refuses a call that needs approval when the run context does not approve it, even if invoked directly', async () => {
      const setup = notesSetup();
      const deleteNote = (await setup.tools()).find((tool) => tool.name === 'delete_note')!;
      const details = { toolCall: functionCall('delete_note', { id: 'n1' }, 'call_direct') as never };
      const output = await deleteNote.invoke(new RunContext(), '{"id":"n1"}', details);
      expect(errorOf(output as string)).toMatchObject({ code: 'APPROVAL_DENIED', message: expect.stringContaining('it was not approved') });
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
    });

    it('gives the model INTERNAL_ERROR, and the run goes on, when a registry rejects', async () => {
      const setup = notesSetup();
      const registry = { ...plainRegistry(setup.registry, new InMemoryApprovalStore()), call: () => Promise.reject(new Error('boom')) };
      const model = new ScriptedModel([() => [functionCall('list_notes', {}, 'call_list')], () => [reply('Sorry.')]]);
      const agent = new Agent({ name: 'notes', model, tools: await toAgentsTools(registry, setup.context) });
      const result = await run(agent, 'List');
      expect(result.finalOutput).toBe('Sorry.');
      expect(errorOf(model.lastOutputFor('call_list'))).toEqual({
        code: 'INTERNAL_ERROR',
        message: "Call to 'list_notes' failed inside the registry.",
      });
    });
  });
});
