import { ToolContext, Type, VerificationRequest, defineTool, type ToolResult } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryVerificationStore } from '../store/in-memory-verification-store.js';
import { VerificationTool } from '../tool/verification-tool.js';
import { HumanVerifier } from '../verifier/human-verifier.js';
import { verifierApprovalGate, type VerifierApprovalGateOptions } from './verifier-approval-gate.js';

const agent = ToolContext.mcp('req-1', 'agent:7', ['notes:write']).with({ runId: 'run_1' });
const ana = ToolContext.web('user:ana', []);
const ben = ToolContext.web('user:ben', []);

function setup(options: VerifierApprovalGateOptions = {}, verifierOptions: ConstructorParameters<typeof HumanVerifier>[0] = {}) {
  const verifier = new HumanVerifier(verifierOptions);
  const registry = new ToolRegistry({ approvalGates: { delete_note: verifierApprovalGate(verifier, options) } });
  new VerificationTool(verifier).register(registry);
  const deleteNote = vi.fn((args: { id: string; folder?: string; token?: string }) => ({ deleted: args.id, folder: args.folder ?? null }));
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object(
        {
          id: Type.String({ minLength: 2 }),
          folder: Type.Optional(Type.String()),
          token: Type.Optional(Type.String({ 'x-milpa-secret': true })),
        },
        { additionalProperties: false },
      ),
      mutating: true,
      scopes: ['notes:write'],
      handler: deleteNote,
    }),
  );
  return { verifier, registry, deleteNote };
}

function approvalIdOf(result: ToolResult): string {
  expect(result.getCode()).toBe('APPROVAL_PENDING');
  return (result.data as { approval_id: string }).approval_id;
}

async function resolve(
  registry: ToolRegistry,
  context: ToolContext,
  approvalId: string,
  decision: 'grant' | 'reject',
  extra: Record<string, unknown> = {},
): Promise<ToolResult> {
  return registry.call('resolve_verification', { request_id: approvalId, decision, principal: context.principal, ...extra }, context);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('verifierApprovalGate', () => {
  it("keeps what an approver needs to decide in the payload: description, hints, target and the agent's reason", async () => {
    const verifier = new HumanVerifier();
    const registry = new ToolRegistry({
      approvalGate: verifierApprovalGate(verifier),
      targetResolvers: [{ resolve: ({ arguments: args }) => ({ kind: 'note', id: String(args['id']) }) }],
    });
    registry.register(
      defineTool({
        name: 'archive_note',
        description: 'Archives a note; it can be restored for 30 days.',
        input: Type.Object({ id: Type.String(), dry_run: Type.Boolean() }),
        mutating: (args: { dry_run: boolean }) => !args.dry_run,
        handler: () => 'archived',
      }),
    );
    const held = await registry.call('archive_note', { id: 'n9', dry_run: false }, agent, { reason: 'Cleaning up <b>old</b> notes.' });
    const payload = (await verifier.store.get(approvalIdOf(held)))?.request.payload;
    expect(payload).toMatchObject({
      description: 'Archives a note; it can be restored for 30 days.',
      hints: { mutating: true, destructive: true, mutability: 'depends_on_arguments' },
      target: { kind: 'note', id: 'n9' },
      reason: 'Cleaning up <b>old</b> notes.',
    });
    const plain = await registry.call('archive_note', { id: 'n10', dry_run: false }, agent);
    expect((await verifier.store.get(approvalIdOf(plain)))?.request.payload).toMatchObject({ reason: null });
  });

  it('holds the call as a verification request a second person grants; the requester resumes once', async () => {
    const { verifier, registry, deleteNote } = setup();
    const held = await registry.call('delete_note', { id: 'n1', token: 'hunter2' }, agent);
    const approvalId = approvalIdOf(held);
    expect(held.error).toContain('waits for approval by someone other than the caller');

    const record = await verifier.store.get(approvalId);
    expect(record?.request).toMatchObject({ subject: 'approval:delete_note', policy: 'single', requestedBy: 'agent:7' });
    expect(record?.request.payload).toMatchObject({ tool: 'delete_note', channel: 'mcp', run_id: 'run_1' });
    // The approver sees the redacted arguments, never the secret.
    expect(JSON.stringify(record?.request.payload)).not.toContain('hunter2');

    expect((await registry.resume(approvalId, agent)).getCode()).toBe('APPROVAL_PENDING');
    expect((await resolve(registry, ana, approvalId, 'grant')).success).toBe(true);
    const done = await registry.resume(approvalId, agent);
    expect(done.success).toBe(true);
    expect(deleteNote).toHaveBeenCalledTimes(1);
    expect(deleteNote.mock.calls[0]?.[0]).toEqual({ id: 'n1', token: 'hunter2' });
    expect((await registry.resume(approvalId, agent)).meta['approval_refusal']).toBe('used');
    expect(deleteNote).toHaveBeenCalledTimes(1);
  });

  it('refuses the requester approving its own call, and the call stays held', async () => {
    const { registry, deleteNote } = setup();
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1' }, agent));
    const selfGrant = await resolve(registry, agent, approvalId, 'grant');
    expect(selfGrant.getCode()).toBe('FORBIDDEN');
    expect((await registry.resume(approvalId, agent)).getCode()).toBe('APPROVAL_PENDING');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('a reject reaches the requester as APPROVAL_DENIED with the reason, and nothing runs', async () => {
    const { registry, deleteNote } = setup();
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1' }, agent));
    await resolve(registry, ana, approvalId, 'reject', { reason: 'that note is still needed' });
    const refused = await registry.resume(approvalId, agent);
    expect(refused.getCode()).toBe('APPROVAL_DENIED');
    expect(refused.error).toContain('rejected by user:ana: that note is still needed');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('a dual policy needs two approvers; one approver twice is not enough', async () => {
    const { registry, deleteNote } = setup({ policy: (request) => (request.toolName === 'delete_note' ? 'dual' : 'single') });
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1' }, agent));
    await resolve(registry, ana, approvalId, 'grant');
    expect((await resolve(registry, ana, approvalId, 'grant')).getCode()).toBe('CONFLICT');
    expect((await registry.resume(approvalId, agent)).getCode()).toBe('APPROVAL_PENDING');
    await resolve(registry, ben, approvalId, 'grant');
    expect((await registry.resume(approvalId, agent)).success).toBe(true);
    expect(deleteNote).toHaveBeenCalledTimes(1);
  });

  it('runs the call with the fields an approver changed, validated again', async () => {
    const { registry, deleteNote } = setup();
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1', folder: 'inbox' }, agent));
    await resolve(registry, ana, approvalId, 'grant', { changes: { folder: 'archive' } });
    const done = await registry.resume(approvalId, agent);
    expect(done.success).toBe(true);
    expect(deleteNote.mock.calls[0]?.[0]).toEqual({ id: 'n1', folder: 'archive' });
  });

  it('refuses an approver change the schema does not accept, and nothing runs', async () => {
    const { registry, deleteNote } = setup();
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1' }, agent));
    await resolve(registry, ana, approvalId, 'grant', { changes: { id: 'x' } });
    const refused = await registry.resume(approvalId, agent);
    expect(refused.getCode()).toBe('APPROVAL_INVALID');
    expect(refused.meta['approval_refusal']).toBe('changes_invalid');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('with dual, a second approver who changes the arguments starts the approvals over', async () => {
    const { registry, deleteNote } = setup({ policy: 'dual' });
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1', folder: 'inbox' }, agent));
    await resolve(registry, ana, approvalId, 'grant');
    const amended = await resolve(registry, ben, approvalId, 'grant', { changes: { folder: 'archive' } });
    expect(amended.data).toMatchObject({ status: 'pending', metadata: { approvals: 1, required: 2 } });
    expect((await registry.resume(approvalId, agent)).getCode()).toBe('APPROVAL_PENDING');
    await resolve(registry, ana, approvalId, 'grant');
    expect((await registry.resume(approvalId, agent)).success).toBe(true);
    expect(deleteNote.mock.calls).toEqual([[{ id: 'n1', folder: 'archive' }, expect.anything()]]);
  });

  it('the auto policy lets the call run without asking', async () => {
    const { registry, deleteNote } = setup({ policy: 'auto' });
    expect((await registry.call('delete_note', { id: 'n1' }, agent)).success).toBe(true);
    expect(deleteNote).toHaveBeenCalledTimes(1);
  });

  it('holds the call until the verifier TTL, then refuses the resume as expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
    const { registry, deleteNote } = setup({}, { ttlMs: 60_000 });
    const held = await registry.call('delete_note', { id: 'n1' }, agent);
    expect(held.data).toMatchObject({ expires_at: '2026-12-01T10:01:00+00:00' });
    vi.setSystemTime(new Date('2026-12-01T10:02:00Z'));
    expect((await registry.resume(approvalIdOf(held), agent)).meta['approval_refusal']).toBe('expired');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('a verification request opened by hand under a guessed id never resumes anything', async () => {
    const { verifier, registry, deleteNote } = setup();
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1' }, agent));
    // A request with another id (the requester's own) granted by someone: unrelated to the held call.
    await verifier.verify(new VerificationRequest('approval:delete_note', 'single', {}, 'agent:7', 'f'.repeat(32)));
    await verifier.grant(VerificationRequest.forResolution('f'.repeat(32)), 'user:ana');
    expect((await registry.resume('f'.repeat(32), agent)).meta['approval_refusal']).toBe('not_found');
    expect((await registry.resume(approvalId, agent)).getCode()).toBe('APPROVAL_PENDING');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('rejects a held call whose verification request vanished', async () => {
    const store = new InMemoryVerificationStore();
    const { registry, deleteNote } = setup({}, { store });
    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1' }, agent));
    vi.spyOn(store, 'get').mockReturnValue(null);
    const refused = await registry.resume(approvalId, agent);
    expect(refused.getCode()).toBe('APPROVAL_DENIED');
    expect(refused.error).toContain('no longer known');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('denies (fail-closed) when the verifier store fails while opening the request', async () => {
    const store = new InMemoryVerificationStore();
    vi.spyOn(store, 'open').mockImplementation(() => {
      throw new Error('disk full');
    });
    const { registry, deleteNote } = setup({}, { store });
    const refused = await registry.call('delete_note', { id: 'n1' }, agent);
    expect(refused.getCode()).toBe('APPROVAL_DENIED');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('refuses a policy that is not one of the approval policies', () => {
    expect(() => verifierApprovalGate(new HumanVerifier(), { policy: 'everyone' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('denies a call when the policy function answers garbage', async () => {
    const { registry, deleteNote } = setup({ policy: () => 'maybe' as never });
    expect((await registry.call('delete_note', { id: 'n1' }, agent)).getCode()).toBe('APPROVAL_DENIED');
    expect(deleteNote).not.toHaveBeenCalled();
  });

  it('installed for the whole registry, it never holds the tools people answer with', async () => {
    const verifier = new HumanVerifier();
    const registry = new ToolRegistry({ approvalGate: verifierApprovalGate(verifier) });
    new VerificationTool(verifier).register(registry);
    const deleteNote = vi.fn((args: { id: string }) => ({ deleted: args.id }));
    registry.register(
      defineTool({
        name: 'delete_note',
        description: 'Delete a note',
        input: Type.Object({ id: Type.String() }),
        mutating: true,
        scopes: ['notes:write'],
        handler: deleteNote,
      }),
    );

    const approvalId = approvalIdOf(await registry.call('delete_note', { id: 'n1' }, agent));
    // Ana's grant runs at once instead of waiting for an approval of its own.
    const granted = await resolve(registry, ana, approvalId, 'grant');
    expect(granted.success).toBe(true);
    expect((await registry.resume(approvalId, agent)).success).toBe(true);
    expect(deleteNote).toHaveBeenCalledTimes(1);

    // Opening a request by hand is not held either; every other mutating tool still is.
    const opened = await registry.call('request_verification', { subject: 'gate:report.publish' }, ben);
    expect(opened.getCode()).not.toBe('APPROVAL_PENDING');
    expect((await registry.call('delete_note', { id: 'n2' }, agent)).getCode()).toBe('APPROVAL_PENDING');
  });
});
