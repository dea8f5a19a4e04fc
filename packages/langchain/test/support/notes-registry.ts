import { InvocationDecision, ToolContext, Type, VerificationRequest, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { HumanVerifier, verifierApprovalGate } from '@milpa/verification';
import { vi } from 'vitest';
import type { HeldCallReview } from '../../src/review/held-call-review.js';
import { auditLog } from './audit-log.js';

/**
 * A registry of note tools for an agent:
 * - `list_notes` (reads),
 * - `delete_note` (mutating; held for approval by a verifier; refused while `state.frozen`),
 * - `archive_note` (asks for confirmation),
 * - `edit_note` (offered to writers, but an overwrite needs `notes:admin`),
 * - `purge_notes` (needs `notes:admin`, so never offered to the agent).
 */
export function notesRegistry() {
  const audit = auditLog();
  const verifier = new HumanVerifier({ ttlMs: 30 * 60_000 });
  const state = { frozen: false };
  const registry = new ToolRegistry({
    logger: audit.logger,
    approvalGates: { delete_note: verifierApprovalGate(verifier) },
    ruleProvider: {
      findMatchingRule: (_channel, _principal, tool, mutating) =>
        tool === 'edit_note' && mutating ? { id: 'overwrite', effect: 'allow', requiresScopes: ['notes:admin'], description: null } : null,
    },
    rules: [
      {
        identifier: 'notes.frozen',
        tools: ['delete_note'],
        evaluate: () => (state.frozen ? InvocationDecision.deny('notes_frozen') : InvocationDecision.allow()),
      },
    ],
  });
  const handlers = {
    listNotes: vi.fn((args: { folder?: string }) => ({ notes: ['n1', 'n2'], folder: args.folder ?? 'inbox' })),
    deleteNote: vi.fn((args: { id: string }) => ({ deleted: args.id })),
    archiveNote: vi.fn((args: { id: string }) => ({ archived: args.id })),
    editNote: vi.fn((args: { id: string; mode: string }) => ({ edited: args.id, mode: args.mode })),
    purgeNotes: vi.fn(() => ({ purged: true })),
  };
  const folder = Type.Optional(Type.String());
  registry.register(
    defineTool({
      name: 'list_notes',
      description: 'List the notes of a folder',
      input: Type.Object({ folder }, { additionalProperties: false }),
      scopes: ['notes:read'],
      handler: handlers.listNotes,
    }),
  );
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object({ id: Type.String({ minLength: 2 }) }, { additionalProperties: false }),
      scopes: ['notes:write'],
      mutating: true,
      handler: handlers.deleteNote,
    }),
  );
  registry.register(
    defineTool({
      name: 'archive_note',
      description: 'Archive a note',
      input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
      scopes: ['notes:write'],
      requiresConfirmation: true,
      handler: handlers.archiveNote,
    }),
  );
  registry.register(
    defineTool({
      name: 'edit_note',
      description: 'Append to a note, or overwrite it',
      input: Type.Object({ id: Type.String(), mode: Type.Union([Type.Literal('append'), Type.Literal('overwrite')]) }),
      scopes: ['notes:write'],
      mutating: (args: { mode?: string }) => args.mode === 'overwrite',
      handler: handlers.editNote,
    }),
  );
  registry.register(
    defineTool({
      name: 'purge_notes',
      description: 'Purge every note',
      input: Type.Object({}),
      scopes: ['notes:admin'],
      mutating: true,
      handler: handlers.purgeNotes,
    }),
  );

  /** A `recordDecision` that records each decision in the verifier as `principal`. */
  const decideAs =
    (principal: string) =>
    async (review: HeldCallReview): Promise<void> => {
      const request = VerificationRequest.forResolution(review.approvalId);
      if (review.decision === 'approve') await verifier.grant(request, principal);
      else await verifier.reject(request, principal, review.message ?? 'rejected');
    };

  return { registry, audit, verifier, state, decideAs, ...handlers };
}

/** The agent's caller: may read and write notes, not administer them. */
export function agentContext(): ToolContext {
  return new ToolContext({ principal: 'agent:notes', channel: 'web', scopes: ['notes:read', 'notes:write'] });
}
