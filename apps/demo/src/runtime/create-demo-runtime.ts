import type { ApprovalGate, ApprovalStore, InvocationHistoryStore } from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { SqliteStores } from '@milpa/store-sqlite';
import type { DemoStores } from '../state/demo-stores.js';
import {
  InMemoryApprovalStore,
  InMemoryInvocationHistoryStore,
  InMemoryRateLimiter,
  ToolRegistry,
  type ChannelPolicy,
  type RateLimitSettings,
  type ToolRegistryOptions,
  type ToolTelemetryOptions,
} from '@milpa/tool-runtime';
import { CliRenderer, DefaultRenderer, RendererRegistry } from '@milpa/tool-runtime/rendering';
import { builtinTools } from '@milpa/tools';
import { HumanVerifier, VerificationTool, verifierApprovalGate } from '@milpa/verification';
import { supervisePrincipals } from '../approval/supervise-principals.js';
import { LookupCache } from '../listeners/lookup-cache.js';
import { PinnedNoteGuard } from '../listeners/pinned-note-guard.js';
import { MemoryLogger, type LogEntry } from '../logging/memory-logger.js';
import { CropAlmanac } from '../plugin/crop-almanac.js';
import { DemoToolProvider } from '../plugin/demo-tool-provider.js';
import { DigestMailer } from '../plugin/digest-mailer.js';
import { NotesService } from '../plugin/notes-service.js';
import { ReportDesk } from '../plugin/report-desk.js';
import { createOwnFolderRule } from '../rules/create-own-folder-rule.js';
import { maxDeletionsPerRunRule } from '../rules/max-deletions-per-run-rule.js';
import { noteTargetResolver } from '../rules/note-target-resolver.js';
import { demoWorkspaceRoot } from '../workspace/demo-workspace.js';

/**
 * The demo's deliberately small rate budget, so the tour can trip it: 8 tokens per caller and tool
 * per minute, a read costs 1 and a mutating call 2 — room for four deletions, so that it is the
 * per-run rule, not the budget, that refuses a run's fourth.
 */
export const DEMO_RATE_LIMIT: RateLimitSettings = Object.freeze({ windowSeconds: 60, maxTokens: 8, cost: 1, mutatingCost: 2 });

/** The scope a caller needs to resolve a verification (the policy dividend). */
export const REVIEWER_SCOPE = 'verification:resolve';

/**
 * The agent whose mutating calls the demo holds for a person, in the tour and in `pnpm demo call`:
 * someone else holding {@link REVIEWER_SCOPE} grants them with `resolve_verification`.
 */
export const SUPERVISED_AGENT = 'agent:assistant';

/** Options of {@link createDemoRuntime}. */
export interface DemoRuntimeOptions {
  /** Tint CLI-rendered results with ANSI colours; default false. */
  readonly color?: boolean;
  /** The rate budget; default {@link DEMO_RATE_LIMIT}. */
  readonly rateLimit?: RateLimitSettings;
  /** Receives every log line as it is written (e.g. to stream audit lines to stderr). */
  readonly onLog?: (entry: LogEntry) => void;
  /** Where the registry's OpenTelemetry spans and metrics go; default the global API (no-ops without an SDK). */
  readonly telemetry?: ToolTelemetryOptions | false;
  /** Clean what models send (`*`, blanks, numeric strings) before validation, listed in `meta.tidied`; default true. */
  readonly tidyArguments?: boolean;
  /**
   * Where the runtime keeps its state: confirmation tokens, rate-limit budgets, verifications,
   * calls held for approval, run histories and idempotency keys, all in one SQLite file or one
   * PostgreSQL schema. Open `SqliteStores` or `PostgresStores` (they stay yours to close) or the
   * path of a file, which the runtime opens and closes in {@link DemoRuntime.close}. Default: in
   * memory, lost when the process ends (what the tests and the commands that make no call use);
   * `pnpm demo` commands that make calls pass a file or PostgreSQL stores.
   */
  readonly stores?: DemoStores | string;
  /**
   * Channel policies that replace the built-in ones, each channel wholesale (the MCP server confirms
   * mutating tools on `mcp`); default none.
   */
  readonly channelPolicies?: Readonly<Record<string, ChannelPolicy>>;
  /** The folder the read-only built-in tools (code_search, file_read, project_info) work in; default the demo workspace. */
  readonly workspaceRoot?: string;
  /**
   * The approval gate asked about every mutating call of a principal that is not supervised (e.g.
   * `terminalApprovalGate()` for `pnpm demo call --approve`); default none, so those calls run
   * without asking.
   */
  readonly approvalGate?: ApprovalGate;
  /**
   * Principals whose mutating calls are held for a person: `verifierApprovalGate` over the
   * runtime's verifier suspends each one until someone else holding `verification:resolve` grants
   * it with `resolve_verification`; default none.
   */
  readonly supervisedPrincipals?: readonly string[];
}

/** A demo registry wired the way a host wires one, with handles on every part the tour shows. */
export interface DemoRuntime {
  /** The governed registry holding the demo tools. */
  readonly registry: ToolRegistry;
  /** The event dispatcher shared by the registry, the verifier and the listeners. */
  readonly dispatcher: EventDispatcher;
  /** Where the registry's audit lines and warnings go. */
  readonly logger: MemoryLogger;
  /** `CliRenderer` for `cli`, `DefaultRenderer` for every other channel. */
  readonly renderers: RendererRegistry;
  /** The plugin that contributed the tools. */
  readonly provider: DemoToolProvider;
  /** The notes behind the notes tools. */
  readonly notes: NotesService;
  /** The almanac behind `lookup_crop`. */
  readonly almanac: CropAlmanac;
  /** The desk behind `publish_report`. */
  readonly reports: ReportDesk;
  /** The simulated mail provider behind `send_digest`. */
  readonly mailer: DigestMailer;
  /** The verifier behind the two verification tools. */
  readonly verifier: HumanVerifier;
  /** The `tool.executing` cache in front of `lookup_crop`. */
  readonly cache: LookupCache;
  /** The `tool.executing` veto protecting pinned notes. */
  readonly guard: PinnedNoteGuard;
  /** The folder the built-in tools search, read and describe. */
  readonly workspaceRoot: string;
  /** The runs' invocation histories, the store the registry was given. */
  readonly history: InvocationHistoryStore;
  /** The held calls waiting for approval, and how each resumed one ended (the approvals console shows it). */
  readonly approvals: ApprovalStore;
  /** The stores (SQLite or PostgreSQL) holding the runtime's state, or null when it is kept in memory. */
  readonly stores: DemoStores | null;
  /** Closes the SQLite file the runtime opened from a path (stores passed in stay open); idempotent. */
  readonly close: () => void;
}

/**
 * Builds the demo registry exactly as a host would: a logger, an `EventDispatcher`, a rate
 * limiter with a small budget (`SqliteRateLimiter` with `stores`, else `InMemoryRateLimiter`), the
 * demo plugin's tools, the verification tools (resolving needs `verification:resolve`), two
 * invocation rules (`notes.own_folder`: only notes in the caller's folder;
 * `notes.max_deletions_per_run`: at most three deletions per run, so a deletion needs a run opened
 * with `registry.startRun()`) with the note target resolver, argument
 * tidying (`tidyArguments`), a cache and a veto listener, the renderers, the read-only built-in
 * tools (`code_search`, `file_read`, `project_info`) over the demo workspace, and, when asked, an
 * approval gate (`approvalGate`, `supervisedPrincipals`). With `stores`, every store the registry
 * and the verifier take comes from one SQLite file (`SqliteStores`) or PostgreSQL schema
 * (`PostgresStores`): confirmation tokens, rate limits, verifications, held calls, run histories
 * and idempotency keys, shared by every process that opens them. The tour, the CLI, the MCP server and the tests all start here. Every call
 * makes a fresh runtime with the same starting notes, crops and reports; only what the stores hold
 * carries over.
 *
 * @throws SqliteStoreError when `stores` is a path SQLite cannot open.
 * @example
 * const demo = await createDemoRuntime({ color: process.stdout.isTTY, stores: '/tmp/milpa-demo/state.db' });
 * try {
 *   const result = await demo.registry.call('list_notes', {}, ToolContext.cli());
 *   process.stdout.write(demo.renderers.render(result, ToolContext.cli()));
 * } finally {
 *   demo.close();
 * }
 */
export async function createDemoRuntime(options: DemoRuntimeOptions = {}): Promise<DemoRuntime> {
  const owned = typeof options.stores === 'string' ? SqliteStores.open(options.stores) : null;
  const stores = owned ?? (typeof options.stores === 'object' ? options.stores : null);
  try {
    return await wireDemoRuntime(options, stores, () => owned?.close());
  } catch (error) {
    owned?.close();
    throw error;
  }
}

/** The stores the registry takes from `stores`, or none (the registry's in-memory defaults). */
function registryStores(
  stores: DemoStores | null,
): Pick<ToolRegistryOptions, 'confirmationStore' | 'historyStore' | 'approvalStore' | 'idempotencyStore'> {
  if (stores === null) return {};
  return {
    confirmationStore: stores.confirmation,
    historyStore: stores.history,
    approvalStore: stores.approval,
    idempotencyStore: stores.idempotency,
  };
}

async function wireDemoRuntime(options: DemoRuntimeOptions, stores: DemoStores | null, close: () => void): Promise<DemoRuntime> {
  const logger = new MemoryLogger(options.onLog === undefined ? {} : { onEntry: options.onLog });
  const dispatcher = new EventDispatcher({ logger });
  // The verifier comes before the registry: the approval gate of supervised principals asks it.
  const verifier = new HumanVerifier({ dispatcher, ...(stores === null ? {} : { store: stores.verification }) });
  const approvalGate = demoApprovalGate(options, verifier);
  // Kept here, not read back from the registry: the console and the tour show a run's history.
  const history = stores?.history ?? new InMemoryInvocationHistoryStore();
  // Kept here too: the console reads held calls from it to show how each resumed call ended.
  const approvals = stores?.approval ?? new InMemoryApprovalStore();
  const registry = new ToolRegistry({
    logger,
    dispatcher,
    rateLimiter: stores?.rateLimiter ?? new InMemoryRateLimiter(),
    ...registryStores(stores),
    historyStore: history,
    approvalStore: approvals,
    rateLimit: options.rateLimit ?? DEMO_RATE_LIMIT,
    // Models send "*" for "any", blank optionals and numbers as strings; tidying cleans those
    // before clamps and validation, and lists every change in meta.tidied.
    tidyArguments: options.tidyArguments ?? true,
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    ...(options.channelPolicies === undefined ? {} : { channelPolicies: options.channelPolicies }),
    targetResolvers: [noteTargetResolver],
    // Asking for and deciding a verification are the approval flow itself: holding them for
    // approval would ask a person to approve an approval (and hold an approver's own grant).
    ...(approvalGate === null ? {} : { approvalGate, approvalGates: { request_verification: null, resolve_verification: null } }),
  });

  const notes = new NotesService();
  // The folder rule first: it needs no history, so a note outside the caller's folder is refused as
  // outside_folder whether or not the call belongs to a run.
  registry.addInvocationRules(createOwnFolderRule(notes), maxDeletionsPerRunRule);
  const almanac = new CropAlmanac();
  const reports = new ReportDesk(dispatcher);
  const mailer = new DigestMailer(() => notes.size);
  const verification = new VerificationTool(verifier, { resolveScopes: [REVIEWER_SCOPE] });
  const provider = new DemoToolProvider({ notes, almanac, reports, mailer, verification });
  await provider.registerTools(registry);
  // The read-only built-in tools over a small farm project: they need the workspace:read scope.
  const workspaceRoot = options.workspaceRoot ?? demoWorkspaceRoot();
  for (const tool of builtinTools({ workspaceRoot }).tools) registry.register(tool);

  const guard = new PinnedNoteGuard(notes).attach(dispatcher);
  const cache = new LookupCache(['lookup_crop']).attach(dispatcher);
  const renderers = new RendererRegistry()
    .addRenderer(new CliRenderer({ color: options.color ?? false }))
    .setDefaultRenderer(new DefaultRenderer());

  return {
    registry,
    dispatcher,
    logger,
    renderers,
    provider,
    notes,
    almanac,
    reports,
    mailer,
    verifier,
    cache,
    guard,
    workspaceRoot,
    history,
    approvals,
    stores,
    close,
  };
}

/**
 * The registry's approval gate: supervised principals' calls held for a person through the
 * verifier, everyone else's asked of `options.approvalGate`; null when neither is configured, so
 * the registry (and its inspection) has no approve step to run.
 */
function demoApprovalGate(options: DemoRuntimeOptions, verifier: HumanVerifier): ApprovalGate | null {
  const supervised = options.supervisedPrincipals ?? [];
  if (supervised.length === 0) return options.approvalGate ?? null;
  const supervisor = verifierApprovalGate(verifier, {
    message: (request) =>
      `${request.principal ?? 'This caller'} is supervised: ` +
      `someone else holding ${REVIEWER_SCOPE} must approve '${request.toolName}' before it runs.`,
  });
  return supervisePrincipals({ principals: supervised, supervisor, otherwise: options.approvalGate ?? null });
}
