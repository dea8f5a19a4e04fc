import { ToolContext } from '@milpa/core';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, type AiSdkTool, type AiSdkToolsOptions } from '../src/index.js';
import { agent, ana, notesRegistry } from './notes-registry.js';
import { readByModel, scriptedModel, type ScriptedTurn } from './scripted-model.js';
import { sdkCall } from './sdk-call.js';

type NeedsApproval = Extract<NonNullable<AiSdkTool['needsApproval']>, (...args: never[]) => unknown>;
type Setup = ReturnType<typeof notesRegistry>;

/** Runs `turns`, answers every approval request with `approved`, and runs again. */
async function approveAndContinue(setup: Setup, options: Omit<AiSdkToolsOptions, 'context'>, turns: ScriptedTurn[], approved = true) {
  const tools = await aiSdkTools(setup.registry, { context: agent, ...options });
  const model = scriptedModel(turns);
  const messages: ModelMessage[] = [{ role: 'user', content: 'Publish n1' }];
  const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
  const requests = first.content.filter((part) => part.type === 'tool-approval-request');
  messages.push(...first.response.messages, {
    role: 'tool',
    content: requests.map((request) => ({ type: 'tool-approval-response' as const, approvalId: request.approvalId, approved })),
  });
  const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
  return { model, first, second, requests };
}

const publishTurns = (): ScriptedTurn[] => [{ calls: [{ id: 'pub-1', tool: 'publish_note', input: { id: 'n1' } }] }, { text: 'Done.' }];

describe('aiSdkTools approval mapping', () => {
  it('asks through the AI SDK for a call the registry holds for approval', async () => {
    const setup = notesRegistry();
    const tools = await aiSdkTools(setup.registry, { context: agent });
    const first = await generateText({ model: scriptedModel(publishTurns()), tools, prompt: 'Publish n1', stopWhen: stepCountIs(5) });
    expect(first.content.filter((part) => part.type === 'tool-approval-request')).toHaveLength(1);
    expect(setup.handlers.publish).not.toHaveBeenCalled();
  });

  it('grants a held call as the approver and resumes it once, audited under the tool call id', async () => {
    const setup = notesRegistry();
    const { model, second } = await approveAndContinue(setup, { approver: ana }, publishTurns());
    expect(second.text).toBe('Done.');
    expect(setup.handlers.publish).toHaveBeenCalledTimes(1);
    expect(readByModel(model, 'pub-1')).toEqual({ type: 'json', value: { ok: true, data: { published: 'n1' } } });
    const outcomes = setup.audit.filter((record) => record.request_id === 'pub-1').map((record) => record.outcome);
    expect(outcomes).toEqual(['approval_pending', 'ok']);
    // The grant itself is audited as the approver's call.
    expect(setup.audit.find((record) => record.tool === 'resolve_verification')).toMatchObject({ principal: 'user:ana', outcome: 'ok' });
  });

  it('refuses an approver who is the requester: the call stays held and the model reads why', async () => {
    const setup = notesRegistry();
    const selfApprover = ToolContext.web('agent:7', ['approvals:resolve']);
    const { model } = await approveAndContinue(setup, { approver: selfApprover }, publishTurns());
    expect(setup.handlers.publish).not.toHaveBeenCalled();
    const read = readByModel(model, 'pub-1');
    expect(read?.value).toMatchObject({
      ok: false,
      code: 'APPROVAL_PENDING',
      approval_id: expect.any(String),
      message: expect.stringContaining('could not be recorded'),
    });
  });

  it('without an approver a held call stays held and the model reads its approval_id', async () => {
    const setup = notesRegistry();
    const { model } = await approveAndContinue(setup, {}, publishTurns());
    expect(setup.handlers.publish).not.toHaveBeenCalled();
    const value = readByModel(model, 'pub-1')?.value as { code: string; approval_id: string };
    expect(value).toMatchObject({ ok: false, code: 'APPROVAL_PENDING', expires_at: expect.any(String) });
    // Someone else grants it later; resuming through the registry runs it once.
    await setup.registry.call('resolve_verification', { request_id: value.approval_id, decision: 'grant', principal: 'user:ana' }, ana);
    expect((await setup.registry.resume(value.approval_id, agent)).success).toBe(true);
    expect(setup.handlers.publish).toHaveBeenCalledTimes(1);
  });

  it(
    'resumes a call granted elsewhere when the model calls again with its approval_id, ' + 'after the person approves that call too',
    async () => {
      const setup = notesRegistry();
      const { model } = await approveAndContinue(setup, {}, [...publishTurns().slice(0, 1), { text: 'It waits for approval.' }]);
      const approvalId = (readByModel(model, 'pub-1')?.value as { approval_id: string }).approval_id;
      await setup.registry.call('resolve_verification', { request_id: approvalId, decision: 'grant', principal: 'user:ana' }, ana);
      const resumed = await approveAndContinue(setup, {}, [
        { calls: [{ id: 'pub-2', tool: 'publish_note', input: { id: 'n1', approval_id: approvalId } }] },
        { text: 'Published.' },
      ]);
      expect(resumed.requests).toHaveLength(1);
      expect(setup.handlers.publish).toHaveBeenCalledTimes(1);
      expect(readByModel(resumed.model, 'pub-2')).toEqual({ type: 'json', value: { ok: true, data: { published: 'n1' } } });
    },
  );

  it("with approval 'mutating', asks for every mutating call, even one the registry lets through", async () => {
    const setup = notesRegistry();
    const admin = ToolContext.web('agent:7', ['notes:read', 'notes:admin']);
    const gated = await aiSdkTools(setup.registry, { context: admin });
    const strict = await aiSdkTools(setup.registry, { context: admin, approval: 'mutating' });
    const call = sdkCall('arch-1');
    const needs = (tools: typeof gated) => (tools['archive_note']!.needsApproval as NeedsApproval)({ id: 'n1' }, call);
    expect(await needs(gated)).toBe(false);
    expect(await needs(strict)).toBe(true);
  });
});
