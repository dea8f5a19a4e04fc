import { streamText, stepCountIs, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, type AiSdkToolSet } from '../src/index.js';
import { agent, ana, notesRegistry } from './notes-registry.js';
import { readByModel, scriptedModel } from './scripted-model.js';

interface RunOptions {
  readonly model: ReturnType<typeof scriptedModel>;
  readonly tools: AiSdkToolSet;
  readonly stopWhen: ReturnType<typeof stepCountIs>;
}

async function drain(messages: ModelMessage[], options: RunOptions) {
  const result = streamText({ ...options, messages });
  const parts: { type: string }[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { parts, response: await result.response };
}

describe('aiSdkTools in a streamText loop', () => {
  it('obeys the same gates: a refusal the model reads, an approval request that runs nothing, then one run', async () => {
    const { registry, handlers, audit } = notesRegistry();
    const tools = await aiSdkTools(registry, { context: agent });
    const model = scriptedModel([
      { calls: [{ id: 's-1', tool: 'archive_note', input: { id: 'n1' } }] },
      { calls: [{ id: 's-2', tool: 'delete_note', input: { id: 'n1' } }] },
      { text: 'n1 is gone.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Archive or delete n1' }];
    const first = await drain(messages, { model, tools, stopWhen: stepCountIs(5) });
    expect(first.parts.filter((part) => part.type === 'tool-result')).toContainEqual(
      expect.objectContaining({ toolCallId: 's-1', output: expect.objectContaining({ ok: false, code: 'FORBIDDEN' }) }),
    );
    const requests = first.parts.filter((part) => part.type === 'tool-approval-request') as unknown as {
      approvalId: string;
      toolCall: { toolCallId: string };
    }[];
    expect(requests.map((request) => request.toolCall.toolCallId)).toEqual(['s-2']);
    // The stream ended at the approval request: the delete did not run.
    expect(handlers.delete).not.toHaveBeenCalled();
    expect(audit.filter((record) => record.request_id === 's-2')).toEqual([]);

    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: requests[0]!.approvalId, approved: true }],
    });
    await drain(messages, { model, tools, stopWhen: stepCountIs(5) });
    expect(handlers.delete).toHaveBeenCalledTimes(1);
    expect(readByModel(model, 's-2')).toEqual({ type: 'json', value: { ok: true, data: { deleted: 'n1' } } });
    expect(audit.filter((record) => record.request_id === 's-2' && record.outcome === 'ok')).toHaveLength(1);
  });

  it('a denied approval in a stream runs nothing and the model reads the denial', async () => {
    const { registry, handlers } = notesRegistry();
    const tools = await aiSdkTools(registry, { context: agent, approver: ana });
    const model = scriptedModel([{ calls: [{ id: 's-3', tool: 'publish_note', input: { id: 'n1' } }] }, { text: 'Not published.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Publish n1' }];
    const first = await drain(messages, { model, tools, stopWhen: stepCountIs(5) });
    const request = first.parts.find((part) => part.type === 'tool-approval-request') as unknown as { approvalId: string };
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false }],
    });
    await drain(messages, { model, tools, stopWhen: stepCountIs(5) });
    expect(handlers.publish).not.toHaveBeenCalled();
    expect(readByModel(model, 's-3')).toMatchObject({ type: 'execution-denied' });
  });

  it('a replayed approval in a stream is refused as used', async () => {
    const { registry, handlers } = notesRegistry();
    const tools = await aiSdkTools(registry, { context: agent, approver: ana });
    const model = scriptedModel([
      { calls: [{ id: 's-4', tool: 'publish_note', input: { id: 'n1' } }] },
      { text: 'Published.' },
      { text: 'Again?' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Publish n1' }];
    const first = await drain(messages, { model, tools, stopWhen: stepCountIs(5) });
    const request = first.parts.find((part) => part.type === 'tool-approval-request') as unknown as { approvalId: string };
    const approved: ModelMessage[] = [
      ...messages,
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
    ];
    await drain([...approved], { model, tools, stopWhen: stepCountIs(5) });
    await drain([...approved], { model, tools, stopWhen: stepCountIs(5) });
    expect(handlers.publish).toHaveBeenCalledTimes(1);
    expect(readByModel(model, 's-4')).toMatchObject({ type: 'json', value: { ok: false, approval_refusal: 'used' } });
  });
});
