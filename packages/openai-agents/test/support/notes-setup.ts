import { ToolContext, Type, defineTool, type ApprovalGate, type ApprovalStore, type PolicyRuleProvider } from '@milpa/core';
import { InMemoryApprovalStore, ToolRegistry } from '@milpa/tool-runtime';
import { Agent, setTracingDisabled, type FunctionTool } from '@openai/agents';
import { vi } from 'vitest';
import { agentsApprovalGate } from '../../src/approval/agents-approval-gate.js';
import { toAgentsTools, type AgentsToolsOptions } from '../../src/tools/to-agents-tools.js';
import { auditLog, type AuditLog } from './audit-log.js';
import { ScriptedModel, type ScriptedTurn } from './scripted-model.js';

// No traces leave a test: the default exporter would try to reach the network.
setTracingDisabled(true);

/** What one process-like setup holds: a registry of note tools, its handlers and its audit. */
export interface NotesSetup {
  readonly registry: ToolRegistry;
  readonly audit: AuditLog;
  readonly context: ToolContext;
  readonly handlers: {
    readonly listNotes: ReturnType<typeof vi.fn>;
    readonly deleteNote: ReturnType<typeof vi.fn>;
    readonly editNote: ReturnType<typeof vi.fn>;
    readonly publishNote: ReturnType<typeof vi.fn>;
    readonly purgeNotes: ReturnType<typeof vi.fn>;
  };
  /** The tools for `context`, as the SDK sees them. */
  tools(options?: AgentsToolsOptions): Promise<FunctionTool[]>;
  /** An agent with those tools and a scripted model. */
  agent(turns: ScriptedTurn[], options?: AgentsToolsOptions): Promise<{ agent: Agent; model: ScriptedModel }>;
}

/** Options of {@link notesSetup}. */
export interface NotesSetupOptions {
  /** The approval store, shared between setups that stand for two processes. */
  readonly approvalStore?: ApprovalStore;
  /** The gate of `delete_note` and `edit_note` (default the run's own; null: none). */
  readonly gate?: ApprovalGate | null;
  /** The caller (default a web user with notes:read and notes:write in run_1). */
  readonly context?: ToolContext;
  /** A policy rule provider for the registry. */
  readonly ruleProvider?: PolicyRuleProvider;
}

/**
 * A registry with five note tools: `list_notes` (reads), `delete_note` (mutates, approval gate),
 * `edit_note` (mutates only when `action` is `delete`, approval gate), `publish_note` (asks for
 * confirmation, no gate) and `purge_notes` (needs `notes:admin`).
 */
export function notesSetup(options: NotesSetupOptions = {}): NotesSetup {
  const audit = auditLog();
  const gate = options.gate === undefined ? agentsApprovalGate() : options.gate;
  const handlers = {
    listNotes: vi.fn(() => ({ notes: [{ id: 'n1', title: 'Groceries' }] })),
    deleteNote: vi.fn((args: { id: string }) => ({ deleted: args.id })),
    editNote: vi.fn((args: { id: string; action: string }) => ({ edited: args.id, action: args.action })),
    publishNote: vi.fn((args: { id: string }) => ({ published: args.id })),
    purgeNotes: vi.fn(() => ({ purged: true })),
  };
  const id = Type.String({ minLength: 2 });
  const tools = [
    defineTool({
      name: 'list_notes',
      description: 'List notes',
      scopes: ['notes:read'],
      input: Type.Object({ folder: Type.Optional(Type.String()) }),
      handler: handlers.listNotes,
    }),
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      scopes: ['notes:write'],
      mutating: true,
      input: Type.Object({ id, reason: Type.Optional(Type.String()) }),
      handler: handlers.deleteNote,
    }),
    defineTool({
      name: 'edit_note',
      description: 'Rename or delete a note',
      scopes: ['notes:write'],
      mutating: (args: { action: string }) => args.action === 'delete',
      input: Type.Object({ id, action: Type.Union([Type.Literal('rename'), Type.Literal('delete')]) }),
      handler: handlers.editNote,
    }),
    defineTool({
      name: 'publish_note',
      description: 'Publish a note',
      scopes: ['notes:write'],
      requiresConfirmation: true,
      input: Type.Object({ id }),
      handler: handlers.publishNote,
    }),
    defineTool({
      name: 'purge_notes',
      description: 'Purge every note',
      scopes: ['notes:admin'],
      mutating: true,
      input: Type.Object({}),
      handler: handlers.purgeNotes,
    }),
  ];
  const registry = new ToolRegistry({
    logger: audit,
    tools,
    approvalStore: options.approvalStore ?? new InMemoryApprovalStore(),
    approvalGates: { delete_note: gate, edit_note: gate },
    ...(options.ruleProvider === undefined ? {} : { ruleProvider: options.ruleProvider }),
  });
  const context = options.context ?? ToolContext.web('user:42', ['notes:read', 'notes:write']).with({ runId: 'run_1' });
  const agentsTools = (toolOptions?: AgentsToolsOptions) => toAgentsTools(registry, context, toolOptions);
  return {
    registry,
    audit,
    context,
    handlers,
    tools: agentsTools,
    async agent(turns, toolOptions) {
      const model = new ScriptedModel(turns);
      return { agent: new Agent({ name: 'notes', instructions: 'Keep notes tidy.', model, tools: await agentsTools(toolOptions) }), model };
    },
  };
}
