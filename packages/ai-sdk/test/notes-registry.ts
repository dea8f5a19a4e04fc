import { ToolContext, Type, defineTool, type LogContext, type Logger, type PolicyRuleProvider } from '@milpa/core';
import { InMemoryRateLimiter, ToolRegistry } from '@milpa/tool-runtime';
import { HumanVerifier, VerificationTool, verifierApprovalGate } from '@milpa/verification';
import { vi } from 'vitest';

/** One structured audit record the registry wrote. */
export interface AuditEntry {
  readonly outcome: string;
  readonly code: string | null;
  readonly tool: string;
  readonly request_id: string;
  readonly principal: string | null;
}

/** A logger that keeps the audit records. */
export function auditLogger(): { readonly logger: Logger; readonly records: AuditEntry[] } {
  const records: AuditEntry[] = [];
  const keep = (context: LogContext): void => {
    const audit = context['audit'];
    if (typeof audit === 'object' && audit !== null) records.push(audit as AuditEntry);
  };
  return { logger: { debug: () => undefined, info: keep, warn: keep, error: keep }, records };
}

/** Archiving needs `notes:admin` once a call really archives (dry runs are open to readers). */
const adminsArchive: PolicyRuleProvider = {
  findMatchingRule: (_channel, _principal, toolName, mutating) =>
    toolName === 'archive_note' && mutating
      ? { id: 'archive-admins', effect: 'allow', requiresScopes: ['notes:admin'], description: null }
      : null,
};

/** The agent: a web principal that may read, write and delete notes, but not archive them for real. */
export const agent = ToolContext.web('agent:7', ['notes:read', 'notes:write']);
/** A person who approves held calls. */
export const ana = ToolContext.web('user:ana', ['approvals:resolve']);

/**
 * A notes registry: `list_notes` (read), `archive_note` (mutating unless a dry run; really
 * archiving needs notes:admin), `delete_note` (requires confirmation), `publish_note` (held by a
 * verifier approval gate), `admin_purge` (scope notes:admin, never offered to the agent).
 * Each tool's budget is two calls a minute.
 */
export function notesRegistry() {
  const { logger, records } = auditLogger();
  const verifier = new HumanVerifier();
  const registry = new ToolRegistry({
    logger,
    ruleProvider: adminsArchive,
    rateLimiter: new InMemoryRateLimiter(),
    rateLimit: { maxTokens: 2, cost: 1, mutatingCost: 1, windowSeconds: 60 },
    approvalGates: { publish_note: verifierApprovalGate(verifier) },
  });
  new VerificationTool(verifier, { resolveScopes: ['approvals:resolve'] }).register(registry);
  const handlers = {
    list: vi.fn(() => ({
      notes: [
        { id: 'n1', title: 'Groceries' },
        { id: 'n2', title: 'Ideas' },
      ],
    })),
    archive: vi.fn((args: { id: string; dry_run?: boolean }) => ({ archived: args.id, dry_run: args.dry_run === true })),
    delete: vi.fn((args: { id: string }) => ({ deleted: args.id })),
    publish: vi.fn((args: { id: string }) => ({ published: args.id })),
    purge: vi.fn(() => ({ purged: true })),
  };
  registry.register(
    defineTool({
      name: 'list_notes',
      description: 'List notes',
      input: Type.Object({}),
      scopes: ['notes:read'],
      mutating: false,
      handler: handlers.list,
    }),
  );
  registry.register(
    defineTool({
      name: 'archive_note',
      description: 'Archive a note (dry_run only reports what would happen)',
      input: Type.Object({ id: Type.String(), dry_run: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      scopes: ['notes:read'],
      mutating: (args: { dry_run?: boolean }) => args.dry_run !== true,
      handler: handlers.archive,
    }),
  );
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
      scopes: ['notes:write'],
      mutating: true,
      requiresConfirmation: true,
      handler: handlers.delete,
    }),
  );
  registry.register(
    defineTool({
      name: 'publish_note',
      description: 'Publish a note to the team',
      input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
      scopes: ['notes:write'],
      mutating: true,
      handler: handlers.publish,
    }),
  );
  registry.register(
    defineTool({
      name: 'admin_purge',
      description: 'Purge every note',
      input: Type.Object({}),
      scopes: ['notes:admin'],
      mutating: true,
      handler: handlers.purge,
    }),
  );
  return { registry, verifier, handlers, audit: records };
}
