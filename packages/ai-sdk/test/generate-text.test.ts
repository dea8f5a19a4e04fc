import { generateText, stepCountIs, type ModelMessage, type ToolApprovalResponse } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../src/index.js';
import { agent, notesRegistry } from './notes-registry.js';
import { readByModel, scriptedModel } from './scripted-model.js';

function approvalRequestsOf(
  content: readonly { type: string }[],
): { approvalId: string; toolCall: { toolCallId: string; toolName: string } }[] {
  return content.filter((part) => part.type === 'tool-approval-request') as never;
}

function answer(approvalId: string, approved: boolean, reason?: string): ModelMessage {
  const response: ToolApprovalResponse = {
    type: 'tool-approval-response',
    approvalId,
    approved,
    ...(reason === undefined ? {} : { reason }),
  };
  return { role: 'tool', content: [response] };
}

describe('aiSdkTools in a generateText loop', () => {
  it('offers exactly the tools the context may call', async () => {
    const { registry } = notesRegistry();
    const tools = await aiSdkTools(registry, { context: agent });
    expect(Object.keys(tools).sort()).toEqual(['archive_note', 'delete_note', 'list_notes', 'publish_note', 'request_verification']);
    expect(tools['admin_purge']).toBeUndefined();
  });

  it('runs an allowed call, lets the model read a scope refusal and a rate limit, and runs an approved mutating call once', async () => {
    const { registry, handlers, audit } = notesRegistry();
    const tools = await aiSdkTools(registry, { context: agent });
    const model = scriptedModel([
      { calls: [{ id: 'call-1', tool: 'list_notes', input: {} }] },
      { calls: [{ id: 'call-2', tool: 'archive_note', input: { id: 'n1' } }] },
      {
        calls: [
          { id: 'call-3', tool: 'list_notes', input: {} },
          { id: 'call-4', tool: 'list_notes', input: {} },
        ],
      },
      { calls: [{ id: 'call-5', tool: 'delete_note', input: { id: 'n2' } }] },
      { text: 'Deleted n2.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Clean up my notes' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });

    // The allowed call ran and the model read its data.
    expect(handlers.list).toHaveBeenCalledTimes(2);
    const toolResults = first.steps.flatMap((step) => step.toolResults);
    expect(toolResults.find((result) => result.toolCallId === 'call-1')?.output).toEqual({
      ok: true,
      data: {
        notes: [
          { id: 'n1', title: 'Groceries' },
          { id: 'n2', title: 'Ideas' },
        ],
      },
    });
    // Archiving for real needs notes:admin: a refusal the model reads, and the run went on.
    expect(toolResults.find((result) => result.toolCallId === 'call-2')?.output).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
      message: expect.stringContaining('notes:admin'),
    });
    expect(handlers.archive).not.toHaveBeenCalled();
    // The third list_notes of the minute is over the budget of two.
    expect(toolResults.find((result) => result.toolCallId === 'call-4')?.output).toMatchObject({
      ok: false,
      code: 'RATE_LIMITED',
      retry_after_seconds: expect.any(Number),
    });
    // The delete stopped the run at the AI SDK's approval request; nothing was deleted.
    const requests = approvalRequestsOf(first.content);
    expect(requests.map((request) => request.toolCall.toolCallId)).toEqual(['call-5']);
    expect(handlers.delete).not.toHaveBeenCalled();
    expect(audit.filter((record) => record.request_id === 'call-5')).toEqual([]);

    messages.push(...first.response.messages, answer(requests[0]!.approvalId, true, 'yes, n2 can go'));
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
    expect(second.text).toBe('Deleted n2.');
    expect(handlers.delete).toHaveBeenCalledTimes(1);
    expect(handlers.delete.mock.calls[0]?.[0]).toEqual({ id: 'n2' });
    expect(readByModel(model, 'call-5')).toEqual({ type: 'json', value: { ok: true, data: { deleted: 'n2' } } });

    // Every call is audited under the AI SDK's tool call id, and each ran at most once.
    for (const id of ['call-1', 'call-2', 'call-3', 'call-4', 'call-5']) {
      const records = audit.filter((record) => record.request_id === id);
      expect(records.length, id).toBeGreaterThan(0);
      expect(records.filter((record) => record.outcome === 'ok').length, id).toBeLessThanOrEqual(1);
    }
    expect(audit.filter((record) => record.request_id === 'call-5').map((record) => record.outcome)).toEqual([
      'confirmation_requested',
      'ok',
    ]);
    expect(audit.find((record) => record.request_id === 'call-2')?.outcome).toBe('auth_denied');
    expect(audit.find((record) => record.request_id === 'call-4')?.outcome).toBe('rate_limited');
  });

  it('lets a dry run through without asking, since it does not mutate', async () => {
    const { registry, handlers } = notesRegistry();
    const tools = await aiSdkTools(registry, { context: agent });
    const model = scriptedModel([
      { calls: [{ id: 'dry-1', tool: 'archive_note', input: { id: 'n1', dry_run: true } }] },
      { text: 'It would archive n1.' },
    ]);
    const result = await generateText({ model, tools, prompt: 'What would archiving n1 do?', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('It would archive n1.');
    expect(handlers.archive).toHaveBeenCalledTimes(1);
    expect(approvalRequestsOf(result.content)).toEqual([]);
  });

  it('a denial reaches the model as the denial, with its reason, and nothing runs', async () => {
    const { registry, handlers, audit } = notesRegistry();
    const tools = await aiSdkTools(registry, { context: agent });
    const model = scriptedModel([
      { calls: [{ id: 'del-1', tool: 'delete_note', input: { id: 'n1' } }] },
      { text: 'Understood, n1 stays.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Delete n1' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    const [request] = approvalRequestsOf(first.content);
    messages.push(...first.response.messages, answer(request!.approvalId, false, 'n1 is still needed'));
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    expect(second.text).toBe('Understood, n1 stays.');
    expect(readByModel(model, 'del-1')).toEqual({ type: 'execution-denied', reason: 'n1 is still needed' });
    expect(handlers.delete).not.toHaveBeenCalled();
    expect(audit.filter((record) => record.request_id === 'del-1')).toEqual([]);
  });

  it('passes the run abort signal to the handler, which sees the abort', async () => {
    const { registry } = notesRegistry();
    let seen: AbortSignal | null = null;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { defineTool, Type } = await import('@milpa/core');
    registry.register(
      defineTool({
        name: 'slow_export',
        description: 'Export every note (slow)',
        input: Type.Object({}),
        scopes: ['notes:read'],
        mutating: false,
        timeoutMs: 600_000,
        handler: (_args, { signal }) =>
          new Promise((resolve) => {
            seen = signal;
            started();
            signal.addEventListener('abort', () => resolve({ exported: false }));
          }),
      }),
    );
    const tools = await aiSdkTools(registry, { context: agent });
    const controller = new AbortController();
    const model = scriptedModel([{ calls: [{ id: 'exp-1', tool: 'slow_export', input: {} }] }, { text: 'never reached' }]);
    const run = generateText({ model, tools, prompt: 'Export', stopWhen: stepCountIs(5), abortSignal: controller.signal });
    await running;
    controller.abort();
    await expect(run).rejects.toThrow();
    expect((seen as AbortSignal | null)?.aborted).toBe(true);
  });
});
