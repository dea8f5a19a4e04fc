import { MilpaError } from '../errors/milpa-error.js';
import { generateRequestId } from './request-id.js';

/** How a call runs: for real, or as a dry run that stops before execution. */
export type ToolMode = 'execute' | 'plan';

/** Fields accepted by `new ToolContext(...)`. Every field is optional. */
export interface ToolContextInit {
  /** Who is calling (`user:42`, `agent:claude`); null or omitted for an anonymous caller. */
  readonly principal?: string | null;
  /** The channel the call arrives on (`cli`, `mcp`, `web`, `telegram`, …). Default `'unknown'`. */
  readonly channel?: string;
  /** The scopes the caller holds; `'*'` grants every scope. Default `[]`. */
  readonly scopes?: readonly string[];
  /** A correlation id; default 32 random lowercase hex characters. */
  readonly requestId?: string;
  /** The caller's IP address, when known. */
  readonly ip?: string | null;
  /** The caller's user agent, when known. */
  readonly userAgent?: string | null;
  /** Host-specific extras (e.g. `chat_id` on telegram). Not serialized by `toJSON()`. */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** `'execute'` (default) or `'plan'`. Any other value, null included, throws `MilpaError` `INVALID_MODE`. */
  readonly mode?: ToolMode;
  /**
   * Who initiated the call when someone else acts for them (the person behind an agent, the user a
   * service account works for). Default: the principal.
   */
  readonly actor?: string | null;
  /**
   * The agent run this call belongs to (from `registry.startRun()`), whose invocation history
   * invocation rules see. Default null: the call belongs to no run and its history is incomplete.
   */
  readonly runId?: string | null;
}

/** The wire shape of a {@link ToolContext}, with snake_case keys. `extra` is left out. */
export interface ToolContextJson {
  /** Who is calling, or null. */
  readonly principal: string | null;
  /** The channel. */
  readonly channel: string;
  /** The scopes held. */
  readonly scopes: readonly string[];
  /** The correlation id. */
  readonly request_id: string;
  /** The caller's IP, or null. */
  readonly ip: string | null;
  /** The caller's user agent, or null. */
  readonly user_agent: string | null;
  /** `'execute'` or `'plan'`. */
  readonly mode: ToolMode;
  /** The initiating actor, or null. */
  readonly actor: string | null;
  /** The run, or null. */
  readonly run_id: string | null;
}

/** The most characters a run id may have. */
const RUN_ID_MAX_LENGTH = 256;

const EMPTY_EXTRA: Readonly<Record<string, unknown>> = Object.freeze({});
const EMPTY_SCOPES: readonly string[] = Object.freeze([]);

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

/**
 * Who is calling, from where, with which scopes, in which mode: one immutable value per call.
 * Build one per channel with the named constructors, or `new ToolContext({...})` for anything else.
 *
 * @example
 * const context = ToolContext.mcp(requestId, 'user:456', ['notes:read']);
 * context.hasScope('notes:read'); // true
 * const dryRun = context.asPlan(); // same caller, mode 'plan'
 */
export class ToolContext {
  /** Who is calling, or null for an anonymous caller. */
  readonly principal: string | null;
  /** The channel the call arrives on. */
  readonly channel: string;
  /** The scopes held; `'*'` grants every scope. */
  readonly scopes: readonly string[];
  /** The correlation id, echoed in `meta.request_id` and audit lines. */
  readonly requestId: string;
  /** The caller's IP, or null. */
  readonly ip: string | null;
  /** The caller's user agent, or null. */
  readonly userAgent: string | null;
  /** Host-specific extras. */
  readonly extra: Readonly<Record<string, unknown>>;
  /** `'execute'` or `'plan'`. */
  readonly mode: ToolMode;
  /** Who initiated the call: the principal unless another actor was named. */
  readonly actor: string | null;
  /** The agent run this call belongs to, or null. */
  readonly runId: string | null;
  /** True when `actor` was given rather than defaulted to the principal. */
  readonly #actorGiven: boolean;

  /**
   * @throws MilpaError `INVALID_MODE` for a mode other than `'execute'` or `'plan'` (a typo'd dry
   *   run must never execute for real), `INVALID_ARGUMENT` for a malformed field.
   */
  constructor(init: ToolContextInit = {}) {
    // Only `undefined` means "use the default": a null mode must not quietly become a real execution.
    const mode = init.mode === undefined ? 'execute' : init.mode;
    if (mode !== 'execute' && mode !== 'plan') {
      throw new MilpaError(`Unknown ToolContext mode '${String(mode)}'. Use 'execute' or 'plan'.`, {
        code: 'INVALID_MODE',
      });
    }
    const principal = init.principal ?? null;
    if (principal !== null && typeof principal !== 'string') throw invalid('ToolContext principal must be a string or null.');
    const channel = init.channel === undefined ? 'unknown' : init.channel;
    if (typeof channel !== 'string' || channel === '') throw invalid('ToolContext channel must be a non-empty string.');
    const scopes = init.scopes === undefined ? EMPTY_SCOPES : init.scopes;
    if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')) {
      throw invalid('ToolContext scopes must be an array of strings.');
    }
    const requestId = init.requestId === undefined ? generateRequestId() : init.requestId;
    if (typeof requestId !== 'string' || requestId === '') throw invalid('ToolContext requestId must be a non-empty string.');
    const ip = init.ip ?? null;
    if (ip !== null && typeof ip !== 'string') throw invalid('ToolContext ip must be a string or null.');
    const userAgent = init.userAgent ?? null;
    if (userAgent !== null && typeof userAgent !== 'string') throw invalid('ToolContext userAgent must be a string or null.');
    const extra = init.extra === undefined ? EMPTY_EXTRA : init.extra;
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw invalid('ToolContext extra must be an object.');
    const actorGiven = init.actor !== undefined;
    const actor = actorGiven ? init.actor : principal;
    if (actorGiven && actor !== null && (typeof actor !== 'string' || actor === ''))
      throw invalid('ToolContext actor must be a non-empty string or null.');
    const runId = init.runId ?? null;
    if (runId !== null && (typeof runId !== 'string' || runId === '' || runId.length > RUN_ID_MAX_LENGTH)) {
      throw invalid(`ToolContext runId must be a non-empty string of at most ${RUN_ID_MAX_LENGTH} characters, or null.`);
    }

    this.principal = principal;
    this.channel = channel;
    this.scopes = Object.isFrozen(scopes) ? scopes : Object.freeze([...scopes]);
    this.requestId = requestId;
    this.ip = ip;
    this.userAgent = userAgent;
    this.extra = Object.isFrozen(extra) ? extra : Object.freeze({ ...extra });
    this.mode = mode;
    this.actor = actor;
    this.runId = runId;
    this.#actorGiven = actorGiven;
    Object.freeze(this);
  }

  /**
   * A trusted local operator: channel `cli`, principal `cli`, scopes `['*']` (the built-in policy
   * for `cli` is `allow_all`).
   */
  static cli(requestId?: string): ToolContext {
    return new ToolContext({ principal: 'cli', channel: 'cli', scopes: ['*'], requestId });
  }

  /**
   * An MCP caller. Without a principal argument the shared placeholder principal `'mcp'` is
   * used; pass `null` explicitly for a genuinely anonymous caller (which the `mcp` channel denies).
   * Scopes are exactly as given: no wildcard is ever added.
   */
  static mcp(requestId: string, principal?: string | null, scopes: readonly string[] = []): ToolContext {
    return new ToolContext({
      principal: principal === undefined ? 'mcp' : principal,
      channel: 'mcp',
      scopes,
      requestId,
    });
  }

  /**
   * A trusted local stdio MCP server process: channel `mcp`, principal `stdio`, scopes `['*']` —
   * the process boundary is the trust boundary. Mode is always `'execute'`.
   */
  static stdio(requestId: string, principal = 'stdio', scopes: readonly string[] = ['*']): ToolContext {
    return new ToolContext({ principal, channel: 'mcp', scopes, requestId });
  }

  /**
   * A Telegram chat: principal `userId`, or `chat:{chatId}` without one; scopes `['read','write']`;
   * `extra.chat_id` set. The `telegram` policy asks for confirmation of mutating tools.
   */
  static telegram(chatId: string | number, userId?: string | null): ToolContext {
    return new ToolContext({
      principal: userId ?? `chat:${String(chatId)}`,
      channel: 'telegram',
      scopes: ['read', 'write'],
      extra: { chat_id: chatId },
    });
  }

  /** A web session: scopes exactly as given, never a wildcard. */
  static web(principal: string | null, scopes: readonly string[] = []): ToolContext {
    return new ToolContext({ principal, channel: 'web', scopes });
  }

  /** The same context (same request id, caller and extras) in `'plan'` mode. */
  asPlan(): ToolContext {
    return this.with({ mode: 'plan' });
  }

  /**
   * A copy with some fields replaced; a field that is absent or `undefined` in `changes` keeps its
   * current value (so a plan-mode context never drops back to execute by accident). An actor that
   * defaulted to the principal follows a changed principal; a named actor stays.
   * @throws MilpaError as the constructor does, for an invalid changed field.
   */
  with(changes: ToolContextInit): ToolContext {
    return new ToolContext({
      principal: changes.principal === undefined ? this.principal : changes.principal,
      channel: changes.channel === undefined ? this.channel : changes.channel,
      scopes: changes.scopes === undefined ? this.scopes : changes.scopes,
      requestId: changes.requestId === undefined ? this.requestId : changes.requestId,
      ip: changes.ip === undefined ? this.ip : changes.ip,
      userAgent: changes.userAgent === undefined ? this.userAgent : changes.userAgent,
      extra: changes.extra === undefined ? this.extra : changes.extra,
      mode: changes.mode === undefined ? this.mode : changes.mode,
      actor: changes.actor === undefined ? (this.#actorGiven ? this.actor : undefined) : changes.actor,
      runId: changes.runId === undefined ? this.runId : changes.runId,
    });
  }

  /** True in `'plan'` mode. */
  isPlanMode(): boolean {
    return this.mode === 'plan';
  }

  /** True in `'execute'` mode. */
  isExecuteMode(): boolean {
    return this.mode === 'execute';
  }

  /** True when the context holds `'*'` or exactly `scope` (no glob matching inside scope strings). */
  hasScope(scope: string): boolean {
    return this.scopes.includes('*') || this.scopes.includes(scope);
  }

  /** True when at least one of `scopes` is held; false for an empty list. */
  hasAnyScope(scopes: readonly string[]): boolean {
    return scopes.some((scope) => this.hasScope(scope));
  }

  /** True when every one of `scopes` is held; true for an empty list. */
  hasAllScopes(scopes: readonly string[]): boolean {
    return scopes.every((scope) => this.hasScope(scope));
  }

  /** `{principal, channel, scopes, request_id, ip, user_agent, mode, actor, run_id}`; `extra` is left out. */
  toJSON(): ToolContextJson {
    return {
      principal: this.principal,
      channel: this.channel,
      scopes: this.scopes,
      request_id: this.requestId,
      ip: this.ip,
      user_agent: this.userAgent,
      mode: this.mode,
      actor: this.actor,
      run_id: this.runId,
    };
  }
}
