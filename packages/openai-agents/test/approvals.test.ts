import type { ApprovalStore, ToolContext } from '@milpa/core';
import { InMemoryApprovalStore } from '@milpa/tool-runtime';
import { RunState, RunToolApprovalItem, run, type Agent } from '@openai/agents';
import { describe, expect, it, vi } from 'vitest';
import { functionCall, reply } from './support/scripted-model.js';
import { notesSetup } from './support/notes-setup.js';

function errorOf(output: string | undefined): { code: string; message: string; approval_refusal?: string } {
  return (JSON.parse(output ?? 'null') as { error: { code: string; message: string; approval_refusal?: string } }).error;
}

function executed(setup: ReturnType<typeof notesSetup>, requestId: string) {
  return setup.audit.forRequest(requestId).filter((record) => record['outcome'] === 'ok');
}

/** One process-like setup: a run interrupted for deleting n1, saved (approved first when asked). */
async function interruptedDelete(store: ApprovalStore, { approve }: { approve: boolean }) {
  const origin = notesSetup({ approvalStore: store });
  const { agent } = await origin.agent([() => [functionCall('delete_note', { id: 'n1' }, 'call_del')]]);
  const first = await run(agent, 'Delete n1');
  if (approve) first.state.approve(first.interruptions[0]!);
  return { origin, saved: first.state.toString() };
}

/** Another process: a new registry and agent on the same store resume `saved` (approving it when asked). */
async function resumeElsewhere(store: ApprovalStore, saved: string, options: { approve?: boolean; context?: ToolContext } = {}) {
  const setup = notesSetup({ approvalStore: store, ...(options.context === undefined ? {} : { context: options.context }) });
  const { agent, model } = await setup.agent([() => [reply('Noted.')]]);
  const state = await RunState.fromString(agent, saved);
  if (options.approve === true) state.approve(state.getInterruptions()[0]!);
  const result = await run(agent, state);
  return { setup, model, result };
}

describe('toAgentsTools approvals', () => {
  describe('an approval interruption', () => {
    it('interrupts the run for a mutating call the registry gates, and nothing runs', async () => {
      const setup = notesSetup();
      const { agent } = await setup.agent([() => [functionCall('delete_note', { id: 'n1' }, 'call_del')]]);
      const result = await run(agent, 'Delete n1');
      expect(result.interruptions).toHaveLength(1);
      expect(result.interruptions[0]).toMatchObject({ name: 'delete_note', arguments: '{"id":"n1"}' });
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(setup.audit.records).toEqual([]);
    });

    it('runs the call once when state.approve() resumes the run, audited once under the tool call id', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([
        () => [functionCall('delete_note', { id: 'n1' }, 'call_del')],
        () => [reply('Deleted.')],
      ]);
      const first = await run(agent, 'Delete n1');
      first.state.approve(first.interruptions[0]!);
      const second = await run(agent, first.state);
      expect(second.finalOutput).toBe('Deleted.');
      expect(second.interruptions).toEqual([]);
      expect(setup.handlers.deleteNote).toHaveBeenCalledTimes(1);
      expect(model.lastOutputFor('call_del')).toBe('{"deleted":"n1"}');
      expect(setup.audit.forRequest('call_del')).toEqual([
        expect.objectContaining({ outcome: 'ok', tool: 'delete_note', principal: 'user:42', channel: 'web' }),
      ]);
    });

    it('runs an approved strict-mode call whose optional fields came as null once, as the handler sees them', async () => {
      const setup = notesSetup();
      const { agent } = await setup.agent([
        () => [functionCall('delete_note', { id: 'n1', reason: null }, 'call_del')],
        () => [reply('Deleted.')],
      ]);
      const first = await run(agent, 'Delete n1');
      first.state.approve(first.interruptions[0]!);
      await run(agent, first.state);
      expect(setup.handlers.deleteNote).toHaveBeenCalledTimes(1);
      expect(setup.handlers.deleteNote.mock.calls[0]![0]).toEqual({ id: 'n1' });
    });

    it('does not interrupt a call of the same tool whose arguments make it read-only', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([
        () => [functionCall('edit_note', { id: 'n1', action: 'rename' }, 'call_rename')],
        () => [reply('Renamed.')],
      ]);
      const result = await run(agent, 'Rename n1');
      expect(result.interruptions).toEqual([]);
      expect(setup.handlers.editNote).toHaveBeenCalledTimes(1);
      expect(model.lastOutputFor('call_rename')).toBe('{"edited":"n1","action":"rename"}');
    });

    it('interrupts for a call that asks for confirmation and, once approved, confirms it and runs it once', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([
        () => [functionCall('publish_note', { id: 'n1' }, 'call_pub')],
        () => [reply('Published.')],
      ]);
      const first = await run(agent, 'Publish n1');
      expect(first.interruptions.map((item) => item.name)).toEqual(['publish_note']);
      first.state.approve(first.interruptions[0]!);
      await run(agent, first.state);
      expect(setup.handlers.publishNote).toHaveBeenCalledTimes(1);
      expect(model.lastOutputFor('call_pub')).toBe('{"published":"n1"}');
      expect(executed(setup, 'call_pub')).toHaveLength(1);
    });
  });

  describe('state.reject()', () => {
    it('gives the model the denial and runs nothing', async () => {
      const setup = notesSetup();
      const { agent, model } = await setup.agent([
        () => [functionCall('delete_note', { id: 'n1' }, 'call_del')],
        () => [reply('I did not delete it.')],
      ]);
      const first = await run(agent, 'Delete n1');
      first.state.reject(first.interruptions[0]!, { message: 'Not today: n1 stays.' });
      const second = await run(agent, first.state);
      expect(second.finalOutput).toBe('I did not delete it.');
      expect(model.lastOutputFor('call_del')).toBe('Not today: n1 stays.');
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(executed(setup, 'call_del')).toEqual([]);
    });
    it('closes the held call, so a copy of the state saved before the decision cannot approve it later', async () => {
      const store = new InMemoryApprovalStore();
      const origin = notesSetup({ approvalStore: store });
      const { agent } = await origin.agent([() => [functionCall('delete_note', { id: 'n1' }, 'call_del')], () => [reply('Kept n1.')]]);
      const first = await run(agent, 'Delete n1');
      const before = first.state.toString();
      first.state.reject(first.interruptions[0]!);
      expect((await run(agent, first.state)).finalOutput).toBe('Kept n1.');

      const late = await resumeElsewhere(store, before, { approve: true });
      expect(late.setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(errorOf(late.model.lastOutputFor('call_del'))).toMatchObject({ code: 'APPROVAL_INVALID', approval_refusal: 'used' });
    });
  });

  describe('a serialized run state', () => {
    it('resumes in a fresh registry sharing the approval store and runs the call once', async () => {
      const store = new InMemoryApprovalStore();
      const { origin, saved } = await interruptedDelete(store, { approve: false });
      const after = await resumeElsewhere(store, saved, { approve: true });
      expect(after.result.finalOutput).toBe('Noted.');
      expect(origin.handlers.deleteNote).not.toHaveBeenCalled();
      expect(after.setup.handlers.deleteNote).toHaveBeenCalledTimes(1);
      expect(after.model.lastOutputFor('call_del')).toBe('{"deleted":"n1"}');
      expect(after.setup.audit.forRequest('call_del')).toEqual([expect.objectContaining({ outcome: 'ok' })]);
    });

    it('runs an approved call once when the same approved state is resumed twice', async () => {
      const store = new InMemoryApprovalStore();
      const { saved } = await interruptedDelete(store, { approve: true });
      const one = await resumeElsewhere(store, saved);
      const two = await resumeElsewhere(store, saved);
      expect(one.setup.handlers.deleteNote).toHaveBeenCalledTimes(1);
      expect(two.setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(errorOf(two.model.lastOutputFor('call_del'))).toMatchObject({ code: 'APPROVAL_INVALID', approval_refusal: 'used' });
    });

    it('runs an approved call once when two processes resume the same approved state at the same time', async () => {
      const store = new InMemoryApprovalStore();
      const { saved } = await interruptedDelete(store, { approve: true });
      const resumed = await Promise.all([resumeElsewhere(store, saved), resumeElsewhere(store, saved), resumeElsewhere(store, saved)]);
      const runs = resumed.reduce((sum, { setup }) => sum + setup.handlers.deleteNote.mock.calls.length, 0);
      expect(runs).toBe(1);
      const refusals = resumed.map(({ model }) => model.lastOutputFor('call_del')).filter((output) => output !== '{"deleted":"n1"}');
      expect(refusals.map((output) => errorOf(output).approval_refusal)).toEqual(['used', 'used']);
    });

    it('refuses the approved call in a process whose caller is another principal', async () => {
      const store = new InMemoryApprovalStore();
      const { origin, saved } = await interruptedDelete(store, { approve: true });
      const other = await resumeElsewhere(store, saved, { context: origin.context.with({ principal: 'user:99' }) });
      expect(other.setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(errorOf(other.model.lastOutputFor('call_del'))).toMatchObject({ code: 'APPROVAL_INVALID', approval_refusal: 'not_found' });
    });
  });

  describe('forged approvals', () => {
    it('keeps the run interrupted when the approval names another call id, and runs nothing', async () => {
      const setup = notesSetup();
      const { agent } = await setup.agent([() => [functionCall('delete_note', { id: 'n1' }, 'call_del')]]);
      const first = await run(agent, 'Delete n1');
      const real = first.interruptions[0]!;
      const forged = new RunToolApprovalItem({ ...(real.rawItem as object), callId: 'call_other' } as never, agent);
      first.state.approve(forged);
      const second = await run(agent, first.state);
      expect(second.interruptions.map((item) => (item.rawItem as { callId: string }).callId)).toEqual(['call_del']);
      expect(setup.handlers.deleteNote).not.toHaveBeenCalled();
    });

    type Approve = (state: RunState<unknown, Agent>, first: RunToolApprovalItem, agent: Agent) => void;
    it.each<[string, Approve]>([
      [
        'an approval given before the run asked about it',
        (state, first, agent) => {
          state.approve(first);
          state.approve(new RunToolApprovalItem(functionCall('delete_note', { id: 'n2' }, 'call_2') as never, agent));
        },
      ],
      ['an approval of every call of the tool', (state, first) => state.approve(first, { alwaysApprove: true })],
    ])('refuses a later call covered only by %s: each call is approved on its own', async (_name, approve) => {
      const setup = notesSetup();
      const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
      const { agent, model } = await setup.agent(
        [
          () => [functionCall('delete_note', { id: 'n1' }, 'call_1')],
          () => [functionCall('delete_note', { id: 'n2' }, 'call_2')],
          () => [reply('Could not delete n2.')],
        ],
        { logger },
      );
      const first = await run(agent, 'Delete n1, then n2');
      approve(first.state as RunState<unknown, Agent>, first.interruptions[0]!, agent);
      const second = await run(agent, first.state);
      expect(second.finalOutput).toBe('Could not delete n2.');
      expect(setup.handlers.deleteNote).toHaveBeenCalledTimes(1);
      expect(setup.handlers.deleteNote).toHaveBeenCalledWith(expect.objectContaining({ id: 'n1' }), expect.anything());
      expect(errorOf(model.lastOutputFor('call_2'))).toMatchObject({ code: 'APPROVAL_INVALID', approval_refusal: 'not_found' });
      expect(executed(setup, 'call_2')).toEqual([]);
      // The registry never saw it, so the adapter's own logger tells of the refused approval.
      expect(logger.warn).toHaveBeenCalledWith(
        { tool: 'delete_note', request_id: 'call_2', code: 'APPROVAL_INVALID', approval_refusal: 'not_found' },
        expect.stringContaining("call to 'delete_note' refused before it reached the registry"),
      );
    });

    it('refuses an approved call whose arguments were changed in the saved state, and the original still runs once', async () => {
      const store = new InMemoryApprovalStore();
      const { saved } = await interruptedDelete(store, { approve: true });
      const tampered = saved.split(String.raw`{\"id\":\"n1\"}`).join(String.raw`{\"id\":\"n2\"}`);
      expect(tampered).not.toBe(saved);
      const forged = await resumeElsewhere(store, tampered);
      expect(forged.setup.handlers.deleteNote).not.toHaveBeenCalled();
      expect(errorOf(forged.model.lastOutputFor('call_del'))).toMatchObject({
        code: 'APPROVAL_INVALID',
        approval_refusal: 'arguments_changed',
      });
      const honest = await resumeElsewhere(store, saved);
      expect(honest.setup.handlers.deleteNote).toHaveBeenCalledTimes(1);
      expect(honest.setup.handlers.deleteNote).toHaveBeenCalledWith(expect.objectContaining({ id: 'n1' }), expect.anything());
    });
  });

  describe('the audit', () => {
    it('shows each call once, under the tool call id the model gave it', async () => {
      const setup = notesSetup();
      const { agent } = await setup.agent([
        () => [functionCall('list_notes', {}, 'call_a'), functionCall('delete_note', { id: 'n1' }, 'call_b')],
        () => [reply('Done.')],
      ]);
      const first = await run(agent, 'List, then delete n1');
      for (const interruption of first.interruptions) first.state.approve(interruption);
      await run(agent, first.state);
      const byRequest = setup.audit.records.map((record) => [record['request_id'], record['tool'], record['outcome']]);
      expect(byRequest).toEqual([
        ['call_a', 'list_notes', 'ok'],
        ['call_b', 'delete_note', 'ok'],
      ]);
      expect(setup.handlers.listNotes).toHaveBeenCalledTimes(1);
    });
  });
});
