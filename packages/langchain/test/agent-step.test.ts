import { describe, expect, it } from 'vitest';
import { interrupt } from '@langchain/langgraph';
import { approveReview } from '../src/review/approve-review.js';
import { rejectReview } from '../src/review/reject-review.js';
import { notesAgent, reviewOf } from './support/agent-harness.js';

describe('MilpaToolkit in a createAgent step', () => {
  it('runs an allowed call once, with the tool call id as the request id', async () => {
    const run = await notesAgent([{ name: 'list_notes', args: { folder: 'work' }, id: 'call_list' }]);
    const step = await run.start();

    expect(step.paused).toEqual([]);
    expect(step.messages).toEqual([{ id: 'call_list', status: 'success', content: { notes: ['n1', 'n2'], folder: 'work' } }]);
    expect(run.listNotes).toHaveBeenCalledTimes(1);
    expect(run.audit.records).toEqual([
      expect.objectContaining({ outcome: 'ok', tool: 'list_notes', request_id: 'call_list', principal: 'agent:notes' }),
    ]);
  });

  it('answers a call refused for a missing scope with an error ToolMessage the model reads, and the run goes on', async () => {
    const run = await notesAgent([
      { name: 'edit_note', args: { id: 'n1', mode: 'overwrite' }, id: 'call_edit' },
      { name: 'list_notes', args: {}, id: 'call_list' },
    ]);
    const step = await run.start();

    const [edit, list] = step.messages;
    expect(edit).toMatchObject({ id: 'call_edit', status: 'error', content: { code: 'FORBIDDEN' } });
    expect((edit?.content as { message: string }).message).toContain('notes:admin');
    expect(list).toMatchObject({ id: 'call_list', status: 'success' });
    expect(run.editNote).not.toHaveBeenCalled();
    expect(run.audit.forRequest('call_edit')).toEqual([expect.objectContaining({ outcome: 'auth_denied', code: 'FORBIDDEN' })]);
  });

  it('never offers a tool outside the scopes, so a call to it by name never reaches a handler', async () => {
    const run = await notesAgent([{ name: 'purge_notes', args: {}, id: 'call_purge' }]);
    expect(run.tools.map((tool) => tool.name).sort()).toEqual(['archive_note', 'delete_note', 'edit_note', 'list_notes']);

    const step = await run.start();

    expect(step.messages).toEqual([expect.objectContaining({ id: 'call_purge', status: 'error' })]);
    expect(run.purgeNotes).not.toHaveBeenCalled();
  });

  it('pauses a mutating call held for approval, and runs it once when a reviewer approves', async () => {
    const run = await notesAgent([{ name: 'delete_note', args: { id: 'n1' }, id: 'call_delete' }], ({ decideAs }) => ({
      interrupt,
      recordDecision: decideAs('user:reviewer'),
    }));
    const first = await run.start();

    expect(run.deleteNote).not.toHaveBeenCalled();
    expect(first.paused).toHaveLength(1);
    const paused = first.paused[0]!;
    expect(paused.request.actionRequests).toEqual([
      { name: 'delete_note', args: { id: 'n1' }, description: expect.stringContaining("'delete_note'") },
    ]);
    expect(paused.request.reviewConfigs).toEqual([{ actionName: 'delete_note', allowedDecisions: ['approve', 'reject'] }]);
    expect(paused.request.milpa).toMatchObject({
      kind: 'approval',
      tool_call_id: 'call_delete',
      tool: 'delete_note',
      approval_id: expect.any(String),
    });

    const second = await run.resume({ [paused.id]: approveReview(paused.request) });

    expect(second.paused).toEqual([]);
    expect(second.messages).toEqual([{ id: 'call_delete', status: 'success', content: { deleted: 'n1' } }]);
    expect(run.deleteNote).toHaveBeenCalledTimes(1);
    expect(run.audit.forRequest('call_delete').map((record) => record['outcome'])).toEqual(['approval_pending', 'ok']);
  });

  it('runs nothing when the reviewer rejects, and tells the model why', async () => {
    const run = await notesAgent([{ name: 'delete_note', args: { id: 'n1' }, id: 'call_delete' }], ({ decideAs }) => ({
      interrupt,
      recordDecision: decideAs('user:reviewer'),
    }));
    const paused = (await run.start()).paused[0]!;

    const second = await run.resume({ [paused.id]: rejectReview(paused.request, 'Keep n1, it is the team list.') });

    expect(second.messages).toEqual([
      {
        id: 'call_delete',
        status: 'error',
        content: { code: 'APPROVAL_DENIED', message: expect.stringContaining('Keep n1, it is the team list.') },
      },
    ]);
    expect(run.deleteNote).not.toHaveBeenCalled();
  });

  it("runs Milpa's rules again on resume: a call approved but refused by a rule by then never runs", async () => {
    const run = await notesAgent([{ name: 'delete_note', args: { id: 'n1' }, id: 'call_delete' }], ({ decideAs }) => ({
      interrupt,
      recordDecision: decideAs('user:reviewer'),
    }));
    const paused = (await run.start()).paused[0]!;
    run.state.frozen = true;

    const second = await run.resume({ [paused.id]: approveReview(paused.request) });

    expect(second.messages).toEqual([{ id: 'call_delete', status: 'error', content: expect.objectContaining({ code: 'FORBIDDEN' }) }]);
    expect(run.deleteNote).not.toHaveBeenCalled();
  });

  it("refuses an approval recorded as the requester itself (the gate's no-self-approval rule holds)", async () => {
    const run = await notesAgent([{ name: 'delete_note', args: { id: 'n1' }, id: 'call_delete' }], ({ decideAs }) => ({
      interrupt,
      recordDecision: decideAs('agent:notes'),
    }));
    const paused = (await run.start()).paused[0]!;

    const second = await run.resume({ [paused.id]: approveReview(paused.request) });

    expect(second.messages).toEqual([
      { id: 'call_delete', status: 'error', content: expect.objectContaining({ code: 'APPROVAL_DENIED' }) },
    ]);
    expect(run.deleteNote).not.toHaveBeenCalled();
  });

  it('runs a call people approved through Milpa itself once the run resumes, when the toolkit records no decisions', async () => {
    const run = await notesAgent([{ name: 'delete_note', args: { id: 'n1' }, id: 'call_delete' }]);
    const paused = (await run.start()).paused[0]!;
    await run.decideAs('user:reviewer')({ ...reviewOf(paused.request), decision: 'approve' });

    const second = await run.resume({ [paused.id]: approveReview(paused.request) });

    expect(second.messages).toEqual([{ id: 'call_delete', status: 'success', content: { deleted: 'n1' } }]);
    expect(run.deleteNote).toHaveBeenCalledTimes(1);
  });

  it('runs nothing on an approve nobody granted in Milpa, when the toolkit records no decisions', async () => {
    const run = await notesAgent([{ name: 'delete_note', args: { id: 'n1' }, id: 'call_delete' }]);
    const paused = (await run.start()).paused[0]!;

    const second = await run.resume({ [paused.id]: approveReview(paused.request) });

    expect(second.messages).toEqual([
      {
        id: 'call_delete',
        status: 'error',
        content: expect.objectContaining({ code: 'APPROVAL_PENDING', approval_id: paused.request.milpa.approval_id }),
      },
    ]);
    expect(run.deleteNote).not.toHaveBeenCalled();
  });

  it('asks for a confirmation through the same interrupt and runs the confirmed call once', async () => {
    const run = await notesAgent([{ name: 'archive_note', args: { id: 'n2' }, id: 'call_archive' }]);
    const first = await run.start();
    const paused = first.paused[0]!;
    expect(paused.request.milpa).toMatchObject({ kind: 'confirmation', tool_call_id: 'call_archive', approval_id: null });
    expect(JSON.stringify(paused.request)).not.toContain('confirm_token');

    const second = await run.resume({ [paused.id]: approveReview(paused.request) });

    expect(second.messages).toEqual([{ id: 'call_archive', status: 'success', content: { archived: 'n2' } }]);
    expect(run.archiveNote).toHaveBeenCalledTimes(1);
    expect(run.audit.forRequest('call_archive').map((record) => record['outcome'])).toEqual(['confirmation_requested', 'ok']);
  });

  it('runs nothing when the person declines a confirmation', async () => {
    const run = await notesAgent([{ name: 'archive_note', args: { id: 'n2' }, id: 'call_archive' }]);
    const paused = (await run.start()).paused[0]!;

    const second = await run.resume({ [paused.id]: rejectReview(paused.request) });

    expect(second.messages).toEqual([
      { id: 'call_archive', status: 'error', content: expect.objectContaining({ code: 'CONFIRMATION_DECLINED' }) },
    ]);
    expect(run.archiveNote).not.toHaveBeenCalled();
  });
});
