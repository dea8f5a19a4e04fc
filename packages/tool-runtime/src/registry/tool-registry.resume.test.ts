import {
  ApprovalVerdict,
  InvocationDecision,
  ToolContext,
  invocationTarget,
  type ToolResult,
  Type,
  defineTool,
  type ApprovalGate,
  type ApprovalResolution,
  type ApprovalStore,
  type InvocationRule,
  type PendingApproval,
} from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { InMemoryApprovalStore } from '../approval/in-memory-approval-store.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

/** A gate that holds every call and answers what the test decided for it. */
function holdingGate() {
  const decisions = new Map<string, ApprovalResolution>();
  const gate: ApprovalGate = {
    check: () => ApprovalVerdict.suspend({ message: 'A manager must approve deletions.' }),
    getResolution: (approval) => decisions.get(approval.approvalId) ?? { status: 'pending' },
  };
  return {
    gate,
    grant: (approvalId: string, changes: Readonly<Record<string, unknown>> | null = null) =>
      decisions.set(approvalId, { status: 'granted', approvedBy: ['manager'], changes }),
    reject: (approvalId: string, reason: string) => decisions.set(approvalId, { status: 'rejected', reason, rejectedBy: 'manager' }),
  };
}

function setup(options: ToolRegistryOptions = {}) {
  const logger = new RecordingLogger();
  const holding = holdingGate();
  const registry = new ToolRegistry({ logger, approvalGate: holding.gate, ...options });
  const deleteNote = vi.fn((args: { id: string; folder?: string }) => ({ deleted: args.id, folder: args.folder ?? null }));
  const archiveNote = vi.fn((args: { id: string }) => ({ archived: args.id }));
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object({ id: Type.String({ minLength: 2 }), folder: Type.Optional(Type.String()) }, { additionalProperties: false }),
      mutating: true,
      scopes: ['notes:write'],
      handler: deleteNote,
    }),
  );
  registry.register(
    defineTool({
      name: 'archive_note',
      description: 'Archive a note',
      input: Type.Object({ id: Type.String() }),
      mutating: true,
      handler: archiveNote,
    }),
  );
  return { registry, logger, deleteNote, archiveNote, ...holding };
}

const agent = (overrides: Partial<{ principal: string; channel: 'mcp' | 'web'; runId: string | null }> = {}) => {
  const base =
    overrides.channel === 'web'
      ? ToolContext.web(overrides.principal ?? 'agent:7', ['notes:write'])
      : ToolContext.mcp('req-1', overrides.principal ?? 'agent:7', ['notes:write']);
  return base.with({ runId: overrides.runId === undefined ? 'run_1' : overrides.runId });
};

async function hold(registry: ToolRegistry, args: Record<string, unknown> = { id: 'n1' }, context = agent()): Promise<string> {
  const held = await registry.call('delete_note', args, context);
  expect(held.meta['code']).toBe('APPROVAL_PENDING');
  return (held.data as { approval_id: string }).approval_id;
}

function refusalOf(result: ToolResult): unknown {
  return result.meta['approval_refusal'];
}

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('approve stage: holding a call', () => {
    it('returns APPROVAL_PENDING with the approval_id, its expiry and how to resume, and runs nothing', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2030-05-01T10:00:00Z'));
      const { registry, deleteNote, logger } = setup({ approvalTtlSeconds: 600 });
      const result = await registry.call('delete_note', { id: 'n1' }, agent());
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('APPROVAL_PENDING');
      const data = result.data as Record<string, unknown>;
      expect(data).toEqual({
        requires_approval: true,
        approval_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        tool: 'delete_note',
        expires_at: '2030-05-01T10:10:00+00:00',
      });
      expect(result.meta).toMatchObject({
        approval_id: data['approval_id'],
        expires_at: '2030-05-01T10:10:00+00:00',
        type: 'approval_pending',
      });
      expect(result.error).toContain('A manager must approve deletions.');
      expect(result.error).toContain(`approval_id "${String(data['approval_id'])}"`);
      expect(deleteNote).not.toHaveBeenCalled();
      expect(logger.auditRecords()).toEqual([
        expect.objectContaining({ outcome: 'approval_pending', code: 'APPROVAL_PENDING', tool: 'delete_note' }),
      ]);
    });

    it('stores the held call bound to tool, arguments digest, principal, channel and run', async () => {
      const { registry } = setup();
      const approvalId = await hold(registry, { folder: 'inbox', id: 'n1' });
      const stored = (await registry.getApprovalStore().get(approvalId)) as PendingApproval;
      expect(stored).toMatchObject({
        approvalId,
        toolName: 'delete_note',
        principal: 'agent:7',
        channel: 'mcp',
        runId: 'run_1',
        requestId: 'req-1',
        redeemedAt: null,
      });
      expect(stored.arguments).toEqual({ id: 'n1', folder: 'inbox' });
      expect(stored.argumentsDigest).toMatch(/^[0-9a-f]{64}$/);
    });

    it('denies, fail-closed, when the gate suspends with an expiry in the past', async () => {
      const gate: ApprovalGate = {
        check: () => ApprovalVerdict.suspend({ expiresAt: new Date(Date.now() - 1000) }),
        getResolution: () => ({ status: 'pending' }),
      };
      const { registry, deleteNote } = setup({ approvalGate: gate });
      expect((await registry.call('delete_note', { id: 'n1' }, agent())).meta['code']).toBe('APPROVAL_DENIED');
      expect(deleteNote).not.toHaveBeenCalled();
    });
  });

  describe('resume: the decision', () => {
    it('answers APPROVAL_PENDING again while nobody decided, and the call stays resumable', async () => {
      const { registry, deleteNote, grant } = setup();
      const approvalId = await hold(registry);
      const early = await registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: approvalId });
      expect(early.meta['code']).toBe('APPROVAL_PENDING');
      expect(early.meta['approval_id']).toBe(approvalId);
      expect(early.error).toContain('Not approved yet.');
      grant(approvalId);
      const done = await registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: approvalId });
      expect(done.success).toBe(true);
      expect(deleteNote).toHaveBeenCalledTimes(1);
    });

    it('runs a granted call once with approval_id as an argument, then refuses it as used', async () => {
      const { registry, deleteNote, grant, logger } = setup();
      const approvalId = await hold(registry);
      grant(approvalId);
      const done = await registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: approvalId });
      expect(done.success).toBe(true);
      expect(done.data).toEqual({ deleted: 'n1', folder: null });
      const again = await registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: approvalId });
      expect(again.meta['code']).toBe('APPROVAL_INVALID');
      expect(refusalOf(again)).toBe('used');
      expect(again.error).toContain('already used');
      expect(deleteNote).toHaveBeenCalledTimes(1);
      expect(logger.auditRecords().map((record) => record['outcome'])).toEqual(['approval_pending', 'ok', 'approval_invalid']);
    });

    it('runs a granted call through registry.resume(approvalId, context)', async () => {
      const { registry, deleteNote, grant } = setup();
      const approvalId = await hold(registry, { id: 'n1', folder: 'inbox' });
      grant(approvalId);
      const done = await registry.resume(approvalId, agent());
      expect(done.success).toBe(true);
      expect(deleteNote).toHaveBeenCalledWith({ id: 'n1', folder: 'inbox' }, expect.anything());
      expect((await registry.resume(approvalId, agent())).meta['code']).toBe('APPROVAL_INVALID');
      expect(deleteNote).toHaveBeenCalledTimes(1);
    });

    it("refuses a rejected call with APPROVAL_DENIED and the approver's reason", async () => {
      const { registry, deleteNote, reject } = setup();
      const approvalId = await hold(registry);
      reject(approvalId, 'That note is evidence');
      const result = await registry.resume(approvalId, agent());
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.error).toBe("Call to 'delete_note' was rejected by manager: That note is evidence. Nothing ran.");
      expect(deleteNote).not.toHaveBeenCalled();
    });
  });

  describe('resume: binding', () => {
    const mismatches: [string, (registry: ToolRegistry, approvalId: string) => Promise<ToolResult>, string][] = [
      [
        'another principal',
        (registry, id) => registry.call('delete_note', { id: 'n1' }, agent({ principal: 'agent:8' }), { approvalId: id }),
        'principal_mismatch',
      ],
      [
        'another channel',
        (registry, id) => registry.call('delete_note', { id: 'n1' }, agent({ channel: 'web' }), { approvalId: id }),
        'channel_mismatch',
      ],
      [
        'another run',
        (registry, id) => registry.call('delete_note', { id: 'n1' }, agent({ runId: 'run_2' }), { approvalId: id }),
        'run_mismatch',
      ],
      ['no run', (registry, id) => registry.call('delete_note', { id: 'n1' }, agent({ runId: null }), { approvalId: id }), 'run_mismatch'],
      ['another tool', (registry, id) => registry.call('archive_note', { id: 'n1' }, agent(), { approvalId: id }), 'tool_mismatch'],
      ['changed arguments', (registry, id) => registry.call('delete_note', { id: 'n2' }, agent(), { approvalId: id }), 'arguments_changed'],
      [
        'an added argument',
        (registry, id) => registry.call('delete_note', { id: 'n1', folder: 'x' }, agent(), { approvalId: id }),
        'arguments_changed',
      ],
      ['a guessed id', (registry) => registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: 'f'.repeat(32) }), 'not_found'],
      ['a malformed id', (registry) => registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: '../../etc' }), 'not_found'],
      [
        'a non-string id',
        (registry) => registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: { $ne: null } as unknown as string }),
        'not_found',
      ],
      ['a guessed id through resume()', (registry) => registry.resume('0'.repeat(32), agent()), 'not_found'],
    ];

    it.each(mismatches)(
      'refuses %s with its own message, runs nothing, and the requester can still resume',
      async (_label, attempt, refusal) => {
        const { registry, deleteNote, archiveNote, grant, logger } = setup();
        const approvalId = await hold(registry);
        grant(approvalId);
        const refused = await attempt(registry, approvalId);
        expect(refused.success).toBe(false);
        expect(refused.meta['code']).toBe('APPROVAL_INVALID');
        expect(refusalOf(refused)).toBe(refusal);
        expect(deleteNote).not.toHaveBeenCalled();
        expect(archiveNote).not.toHaveBeenCalled();
        expect(logger.auditRecords().at(-1)).toMatchObject({ outcome: 'approval_invalid' });
        expect((await registry.resume(approvalId, agent())).success).toBe(true);
        expect(deleteNote).toHaveBeenCalledTimes(1);
      },
    );

    it('gives each refusal its own message', async () => {
      const { registry, grant } = setup();
      const approvalId = await hold(registry);
      grant(approvalId);
      const messages = await Promise.all(
        mismatches.slice(0, 8).map(([, attempt]) => attempt(registry, approvalId).then((result) => result.error)),
      );
      expect(new Set(messages.slice(0, 3)).size).toBe(3);
      expect(messages[4]).toContain("another tool, not 'archive_note'");
      expect(messages[5]).toContain('arguments differ');
      expect(messages[7]).toContain('Unknown approval_id');
    });

    it('refuses an expired approval and runs nothing', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2030-05-01T10:00:00Z'));
      const { registry, deleteNote, grant } = setup({ approvalTtlSeconds: 60 });
      const approvalId = await hold(registry);
      grant(approvalId);
      vi.setSystemTime(new Date('2030-05-01T10:01:00.001Z'));
      const late = await registry.resume(approvalId, agent());
      expect(late.meta['code']).toBe('APPROVAL_INVALID');
      expect(refusalOf(late)).toBe('expired');
      expect(late.error).toContain('expired at 2030-05-01T10:01:00+00:00');
      expect(deleteNote).not.toHaveBeenCalled();
    });

    it('treats approval_id as an ordinary argument of a tool no gate holds, and leaves the held call untouched', async () => {
      const { registry, grant, archiveNote } = setup({ approvalGates: { archive_note: null } });
      const approvalId = await hold(registry);
      grant(approvalId);
      const result = await registry.call('archive_note', { id: 'n1' }, agent(), { approvalId: approvalId });
      // Without a gate the id is an ordinary (here undeclared) argument: the archive runs as asked,
      // and the held deletion is still the requester's to resume.
      expect(result.success).toBe(true);
      expect(archiveNote).toHaveBeenCalledTimes(1);
      expect((await registry.resume(approvalId, agent())).success).toBe(true);
    });
  });

  describe("resume: the approver's changes", () => {
    it('runs the approved arguments when the requester resumes with the ones it asked with', async () => {
      const { registry, deleteNote, grant } = setup();
      const approvalId = await hold(registry, { id: 'n1', folder: 'inbox' });
      grant(approvalId, { folder: 'trash' });
      const done = await registry.call('delete_note', { id: 'n1', folder: 'inbox' }, agent(), { approvalId: approvalId });
      expect(done.success).toBe(true);
      expect(deleteNote).toHaveBeenCalledTimes(1);
      expect(deleteNote.mock.calls[0]?.[0]).toEqual({ id: 'n1', folder: 'trash' });
    });

    it('accepts the approved arguments presented back', async () => {
      const { registry, deleteNote, grant } = setup();
      const approvalId = await hold(registry, { id: 'n1' });
      grant(approvalId, { id: 'n9' });
      expect((await registry.call('delete_note', { id: 'n9' }, agent(), { approvalId: approvalId })).success).toBe(true);
      expect(deleteNote.mock.calls[0]?.[0]).toEqual({ id: 'n9' });
    });

    it.each([
      [{ owner: 'mallory' }, "The approver changed fields 'delete_note' does not declare (owner); nothing ran."],
      [{ id: 'x' }, "The approver's changes do not make valid arguments for 'delete_note'"],
      [{ id: 42 }, "The approver's changes do not make valid arguments for 'delete_note'"],
    ])('refuses changes %j that are undeclared or invalid, and runs nothing', async (changes, message) => {
      const { registry, deleteNote, grant } = setup();
      const approvalId = await hold(registry);
      grant(approvalId, changes);
      const result = await registry.resume(approvalId, agent());
      expect(result.meta['code']).toBe('APPROVAL_INVALID');
      expect(result.meta['approval_refusal']).toBe('changes_invalid');
      expect(result.error).toContain(message);
      expect(deleteNote).not.toHaveBeenCalled();
    });
  });

  describe('resume: authorization and rules run again', () => {
    it('refuses a resume by a context that lost the scope', async () => {
      const { registry, deleteNote, grant } = setup();
      const approvalId = await hold(registry);
      grant(approvalId);
      const result = await registry.call('delete_note', { id: 'n1' }, ToolContext.mcp('req-2', 'agent:7', []).with({ runId: 'run_1' }), {
        approvalId,
      });
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(deleteNote).not.toHaveBeenCalled();
    });

    it('runs the rules over the approved arguments right before execution', async () => {
      const seen: unknown[] = [];
      const rule: InvocationRule = {
        identifier: 'notes.never_trash',
        tools: ['delete_note'],
        evaluate: ({ arguments: args }) => {
          seen.push({ ...args });
          return args['folder'] === 'trash' ? InvocationDecision.deny('trash_is_kept') : InvocationDecision.allow();
        },
      };
      const { registry, deleteNote, grant } = setup({ rules: [rule] });
      const approvalId = await hold(registry, { id: 'n1', folder: 'inbox' });
      grant(approvalId, { folder: 'trash' });
      const result = await registry.resume(approvalId, agent());
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.never_trash', reason: 'trash_is_kept' });
      expect(seen).toEqual([
        { id: 'n1', folder: 'inbox' },
        { id: 'n1', folder: 'trash' },
      ]);
      expect(deleteNote).not.toHaveBeenCalled();
    });

    it('holds a confirmed call, and its resume runs without asking for a new token', async () => {
      const { registry, grant } = setup();
      const handler = vi.fn(() => 'published');
      registry.register(
        defineTool({
          name: 'publish',
          description: 'Publish',
          input: Type.Object({ page: Type.Integer() }),
          mutating: true,
          requiresConfirmation: true,
          handler,
        }),
      );
      const first = await registry.call('publish', { page: 3 }, agent());
      const held = await registry.call('publish', { page: 3 }, agent(), { confirmToken: first.getConfirmToken() as string });
      expect(held.meta['code']).toBe('APPROVAL_PENDING');
      const approvalId = (held.data as { approval_id: string }).approval_id;
      grant(approvalId);
      const done = await registry.resume(approvalId, agent());
      expect(done.success).toBe(true);
      expect(handler).toHaveBeenCalledTimes(1);
    });
  });

  describe('resume: races', () => {
    it('runs the tool exactly once when 200 resumptions of one granted approval race', async () => {
      const { registry, deleteNote, grant } = setup();
      const approvalId = await hold(registry);
      grant(approvalId);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          index % 2 === 0
            ? registry.resume(approvalId, agent())
            : registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: approvalId }),
        ),
      );
      expect(deleteNote).toHaveBeenCalledTimes(1);
      expect(results.filter((result) => result.success)).toHaveLength(1);
      expect(results.filter((result) => result.meta['approval_refusal'] === 'used')).toHaveLength(199);
    });

    it('runs exactly once when the store answers asynchronously, as a shared store does', async () => {
      const inner = new InMemoryApprovalStore();
      const store: ApprovalStore = {
        open: async (approval) => inner.open(approval),
        get: async (approvalId) => inner.get(approvalId),
        redeem: async (approvalId, claim) => inner.redeem(approvalId, claim),
      };
      const { registry, deleteNote, grant } = setup({ approvalStore: store });
      const approvalId = await hold(registry);
      grant(approvalId);
      const results = await Promise.all(Array.from({ length: 200 }, () => registry.resume(approvalId, agent())));
      expect(deleteNote).toHaveBeenCalledTimes(1);
      expect(results.filter((result) => result.success)).toHaveLength(1);
    });
  });

  describe('resume: fail-closed', () => {
    function brokenStore(part: Partial<ApprovalStore>): ApprovalStore {
      const inner = new InMemoryApprovalStore();
      return {
        open: (approval) => inner.open(approval),
        get: (approvalId) => inner.get(approvalId),
        redeem: (approvalId, claim) => inner.redeem(approvalId, claim),
        ...part,
      };
    }

    it.each([
      [
        'open throws',
        {
          open: () => {
            throw new Error('disk full');
          },
        },
      ],
      ['open rejects', { open: () => Promise.reject(new Error('disk full')) }],
      ['open answers false', { open: () => false }],
      ['open answers garbage', { open: () => 'ok' as never }],
    ] as [string, Partial<ApprovalStore>][])('denies and audits a call to hold when the store %s', async (_label, part) => {
      const { registry, deleteNote, logger } = setup({ approvalStore: brokenStore(part) });
      const result = await registry.call('delete_note', { id: 'n1' }, agent());
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.error).toBe("Call to 'delete_note' refused: the approval store failed (fail-closed).");
      expect(result.meta['store']).toBe('approval');
      expect(deleteNote).not.toHaveBeenCalled();
      expect(logger.auditRecords().at(-1)).toMatchObject({ outcome: 'approval_denied' });
    });

    it.each([
      [
        'get throws',
        {
          get: () => {
            throw new Error('timeout');
          },
        },
      ],
      ['get answers garbage', { get: () => ({ approvalId: 1 }) as never }],
      [
        'redeem throws',
        {
          redeem: () => {
            throw new Error('timeout');
          },
        },
      ],
      ['redeem rejects', { redeem: () => Promise.reject(new Error('timeout')) }],
      ['redeem answers garbage', { redeem: () => ({ status: 'ok' }) as never }],
      ['redeem answers a redemption without the record', { redeem: () => ({ status: 'redeemed' }) as never }],
    ] as [string, Partial<ApprovalStore>][])('denies and audits a resume when the store %s, and runs nothing', async (_label, part) => {
      const inner = new InMemoryApprovalStore();
      const store: ApprovalStore = {
        open: (approval) => inner.open(approval),
        get: (approvalId) => inner.get(approvalId),
        redeem: (approvalId, claim) => inner.redeem(approvalId, claim),
      };
      const { registry, deleteNote, grant, logger } = setup({ approvalStore: store });
      const approvalId = await hold(registry);
      grant(approvalId);
      Object.assign(store, part);
      const result = await registry.call('delete_note', { id: 'n1' }, agent(), { approvalId: approvalId });
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.meta['store']).toBe('approval');
      expect(deleteNote).not.toHaveBeenCalled();
      expect(logger.auditRecords().at(-1)).toMatchObject({ outcome: 'approval_denied' });
    });

    it('denies when resume() finds a store that throws', async () => {
      const { registry, deleteNote, logger } = setup({
        approvalStore: brokenStore({
          get: () => {
            throw new Error('down');
          },
        }),
      });
      const result = await registry.resume('a'.repeat(32), agent());
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(deleteNote).not.toHaveBeenCalled();
      expect(logger.auditRecords().at(-1)).toMatchObject({ outcome: 'approval_denied' });
    });

    it("denies when the store hangs on redeem past the caller's abort", async () => {
      const inner = new InMemoryApprovalStore();
      const controller = new AbortController();
      const store: ApprovalStore = {
        open: (approval) => inner.open(approval),
        get: (approvalId) => inner.get(approvalId),
        redeem: () => {
          controller.abort();
          return new Promise(() => undefined);
        },
      };
      const { registry, deleteNote, grant } = setup({ approvalStore: store });
      const approvalId = await hold(registry);
      grant(approvalId);
      const result = await registry.resume(approvalId, agent(), { signal: controller.signal });
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.error).toContain('the approval store did not answer before the caller aborted');
      expect(deleteNote).not.toHaveBeenCalled();
    });

    it.each([
      [
        'throws',
        () => {
          throw new Error('verifier down');
        },
      ],
      ['answers garbage', () => ({ status: 'approved' })],
      ['answers a grant without approvers', () => ({ status: 'granted', changes: null })],
      ['answers changes that are not an object', () => ({ status: 'granted', approvedBy: ['m'], changes: 'id=2' })],
    ])("denies a resume when the gate's resolution %s", async (_label, getResolution) => {
      const gate: ApprovalGate = { check: () => ApprovalVerdict.suspend(), getResolution: getResolution as never };
      const { registry, deleteNote } = setup({ approvalGate: gate });
      const approvalId = await hold(registry);
      const result = await registry.resume(approvalId, agent());
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(deleteNote).not.toHaveBeenCalled();
    });
  });

  describe("resume: the run's invocation history", () => {
    const noteTarget = {
      resolve: ({ toolName, arguments: args }: { toolName: string; arguments: Readonly<Record<string, unknown>> }) =>
        toolName === 'delete_note' ? invocationTarget('note', String(args['id'])) : null,
    };

    it('records the suspension and the resumption, and the rules on resume see the complete history', async () => {
      const histories: { complete: boolean; outcomes: string[] }[] = [];
      const rule: InvocationRule = {
        identifier: 'notes.audit_trail',
        requiresCompleteHistory: true,
        tools: ['delete_note'],
        evaluate: ({ history }) => {
          histories.push({
            complete: history.complete,
            outcomes: history.observations.map((observation) => `${observation.tool}:${observation.outcome}`),
          });
          return InvocationDecision.allow();
        },
      };
      const { registry, deleteNote, grant } = setup({ rules: [rule], targetResolvers: [noteTarget] });
      const runId = await registry.startRun();
      const context = agent({ runId });
      const approvalId = await hold(registry, { id: 'n1' }, context);
      await registry.call('archive_note', { id: 'n2' }, context);
      const early = await registry.resume(approvalId, context);
      expect(early.meta['code']).toBe('APPROVAL_PENDING');
      grant(approvalId);
      expect((await registry.resume(approvalId, context)).success).toBe(true);
      expect(deleteNote).toHaveBeenCalledTimes(1);
      // The rules ran on the first call and on the granted resume (a resume still waiting stops
      // at approve, before the rules).
      expect(histories).toEqual([
        { complete: true, outcomes: [] },
        { complete: true, outcomes: ['delete_note:approval_pending', 'archive_note:approval_pending', 'delete_note:approval_pending'] },
      ]);
      const history = await registry.getHistoryStore().load(runId);
      expect(history?.observations.map((observation) => [observation.tool, observation.outcome, observation.target?.id ?? null])).toEqual([
        ['delete_note', 'approval_pending', 'n1'],
        ['archive_note', 'approval_pending', null],
        ['delete_note', 'approval_pending', null],
        ['delete_note', 'executed', 'n1'],
      ]);
    });

    it('records a refused resume, so a rule can count attempts', async () => {
      const { registry, grant } = setup();
      const runId = await registry.startRun();
      const approvalId = await hold(registry, { id: 'n1' }, agent({ runId }));
      grant(approvalId);
      await registry.call('delete_note', { id: 'n2' }, agent({ runId }), { approvalId: approvalId });
      const history = await registry.getHistoryStore().load(runId);
      expect(history?.observations.map((observation) => observation.outcome)).toEqual(['approval_pending', 'approval_invalid']);
    });
  });
});
