import { MilpaError, ToolContext, normalizeToolDefinition, type AnyToolDefinition, type JsonSchema, type ToolSummary } from '@milpa/core';
import type { RegisteredTool } from '../pipeline/registered-tool.js';
import { isPromiseLike } from '../pipeline/settle.js';
import type { AuthorizationResult } from '../policy/authorization-result.js';
import type { PolicyGate } from '../policy/policy-gate.js';
import { applicableClamps } from '../validation/applicable-clamps.js';
import type { SchemaValidator } from '../validation/schema-validator.js';
import type { DenyList, DenyReport } from './deny-list.js';
import { ToolAlreadyRegisteredError } from './tool-already-registered-error.js';
import { listTool, summarizeTool } from './tool-listing.js';
import type { ToolListing } from './tool-registry-options.js';

/** Callers whose listing is kept at once; past it the cache starts over. */
const MAX_CACHED_LISTINGS = 1_000;

function isEmptySchema(schema: JsonSchema): boolean {
  return Object.keys(schema).length === 0;
}

/** Where the catalog reports: the registry's contained logging. */
export interface CatalogLog {
  /** Logs at debug level when the logger has it on. */
  debug(context: Record<string, unknown>, message: string): void;
  /** Logs without ever throwing. */
  safeLog(level: 'debug' | 'info' | 'warn' | 'error', context: Record<string, unknown>, message: string): void;
}

/** What a `ToolCatalog` is built from. */
export interface ToolCatalogInit {
  /** The map the catalog fills; the call runtime reads the same map. */
  readonly tools: Map<string, RegisteredTool>;
  /** The tools no caller may see or call. */
  readonly deny: DenyList;
  /** Checks every schema at registration. */
  readonly validator: SchemaValidator;
  /** Decides which tools a caller may see. */
  readonly gate: PolicyGate;
  /** Where warnings and debug lines go. */
  readonly log: CatalogLog;
}

/**
 * The registered tools: registration (schemas checked, the deny list applied), lookups, and the
 * listings per caller, cached while tools and policy are unchanged.
 * @internal
 */
export class ToolCatalog {
  readonly #tools: Map<string, RegisteredTool>;
  readonly #deny: DenyList;
  readonly #validator: SchemaValidator;
  readonly #gate: PolicyGate;
  readonly #log: CatalogLog;
  /** Bumped by every registration, so cached listings know when they are stale. */
  #toolsRevision = 0;
  /** Listings per caller (channel, principal, scopes), valid while tools and policy are unchanged. */
  readonly #listings = new Map<string, { readonly revision: string; readonly tools: readonly AnyToolDefinition[] }>();

  constructor(init: ToolCatalogInit) {
    this.#tools = init.tools;
    this.#deny = init.deny;
    this.#validator = init.validator;
    this.#gate = init.gate;
    this.#log = init.log;
  }

  /** Logs the deny-list names that match no tool: a count and at most five names. */
  warnUnmatchedDenials(): void {
    const { unmatched } = this.denyReport();
    if (unmatched.length === 0) return;
    const shown = unmatched.slice(0, 5).map((entry) => (entry.via === 'deny' ? entry.name : `${entry.name} (${entry.via})`));
    const more = unmatched.length > 5 ? ', …' : '';
    this.#log.safeLog(
      'warn',
      { unmatched_count: unmatched.length },
      `[ToolRegistry] The deny list names ${unmatched.length} tool(s) that match no registered tool, so they deny ` +
        `nothing: ${shown.join(', ')}${more}. Check the names.`,
    );
  }

  /** What the deny list covers, given the tools registered so far. */
  denyReport(): DenyReport {
    return this.#deny.report((name) => this.#tools.has(name));
  }

  /**
   * Registers a tool, its schemas checked now; a denied tool is checked, then left out.
   * @throws ToolAlreadyRegisteredError for a duplicate name (the first registration stays).
   * @throws MilpaError `INVALID_TOOL_DEFINITION` / `INVALID_SCHEMA` for an invalid definition or schema.
   */
  register(definition: AnyToolDefinition): void {
    const normalized = normalizeToolDefinition(definition);
    // A denied tool is never registered: not listed, and a call to it is TOOL_NOT_FOUND.
    if (this.#deny.denies(normalized.name)) {
      this.#log.debug({ tool: normalized.name }, `[ToolRegistry] ${normalized.name} is on the deny list; not registered`);
      return;
    }
    if (this.#tools.has(normalized.name)) throw new ToolAlreadyRegisteredError(normalized.name);
    const empty = isEmptySchema(normalized.inputSchema);
    if (!empty) this.#validator.assertSchema(normalized.inputSchema);
    if (normalized.outputSchema !== null) this.#validator.assertSchema(normalized.outputSchema);
    const { clamps, skipped } = applicableClamps(normalized.clamps, normalized.inputSchema);
    if (skipped.length > 0) {
      this.#log.safeLog(
        'warn',
        { tool: normalized.name, fields: skipped },
        `[ToolRegistry] ${normalized.name} clamps ${skipped.join(', ')}, an identifier or protected field: the clamp is not ` +
          `applied (a value moved to a bound would name another record), the value is validated as sent`,
      );
    }
    this.#toolsRevision++;
    this.#tools.set(normalized.name, {
      definition: normalized,
      // Compiled by the validate stage on the first call; null: nothing to validate.
      validate: empty ? null : undefined,
      freezeArgs: undefined,
      clamps,
      rateLimitKey: null,
    });
  }

  /** True when a tool of that name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The registered definition, or null. */
  getDefinition(name: string): AnyToolDefinition | null {
    return this.#tools.get(name)?.definition ?? null;
  }

  /** Every definition, in registration order. */
  getToolDefinitions(): AnyToolDefinition[] {
    return Array.from(this.#tools.values(), (entry) => entry.definition);
  }

  /** The LLM/MCP wire listing, in registration order. */
  getToolSummaries(): ToolSummary[] {
    return this.getToolDefinitions().map(summarizeTool);
  }

  /** Tools a holder of `scopes` may see (`'*'` sees every tool). */
  getToolsByScopes(scopes: readonly string[]): ToolListing[] {
    const all = scopes.includes('*');
    return this.getToolDefinitions()
      .filter((definition) => all || definition.scopes.length === 0 || definition.scopes.some((scope) => scopes.includes(scope)))
      .map(listTool);
  }

  /** Tools whose name starts with `prefix`. */
  getToolsByPrefix(prefix: string): ToolListing[] {
    return this.getToolDefinitions()
      .filter((definition) => definition.name.startsWith(prefix))
      .map(listTool);
  }

  /** The tools `context` may call, in registration order: those whose authorization passes before any argument is known. */
  async listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]> {
    if (!(context instanceof ToolContext)) throw new MilpaError('listToolsFor needs a ToolContext.', { code: 'INVALID_ARGUMENT' });
    const gate = this.#gate;
    // Without a rule provider a verdict depends only on the policy, the tool and who is calling,
    // so the listing is kept per caller until a tool is registered or a policy changes. A rule
    // provider is the host's own (it may change its mind), so it is asked every time.
    if (gate.hasRuleProvider()) return this.#authorizedTools(context);
    const key = `${context.channel}\u0000${context.principal ?? '\u0001'}\u0000${[...context.scopes].sort().join('\u0000')}`;
    const revision = `${this.#toolsRevision}:${gate.revision}`;
    const cached = this.#listings.get(key);
    if (cached !== undefined && cached.revision === revision) return cached.tools;
    const tools = Object.freeze(await this.#authorizedTools(context));
    if (this.#listings.size >= MAX_CACHED_LISTINGS) this.#listings.clear();
    this.#listings.set(key, { revision, tools });
    return tools;
  }

  async #authorizedTools(context: ToolContext): Promise<AnyToolDefinition[]> {
    const gate = this.#gate;
    const entries = [...this.#tools.values()];
    // An unknown channel is warned about once per listing (by the first check), not once per tool.
    const verdicts = entries.map((entry, index) => gate.authorize(context, entry.definition, { quiet: index > 0 }));
    // Only a rule provider answers with a promise; await them all at once.
    const settled = verdicts.some(isPromiseLike) ? await Promise.all(verdicts) : (verdicts as AuthorizationResult[]);
    return entries.filter((_entry, index) => settled[index]?.allowed === true).map((entry) => entry.definition);
  }
}
