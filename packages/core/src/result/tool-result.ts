import { MilpaError } from '../errors/milpa-error.js';
import type { ApprovalPendingOutcome, CallOutcome, ConfirmationRequiredOutcome, RefusedOutcome } from '../outcome/call-outcome.js';
import { isContentBlock, type ContentBlock } from './content-block.js';
import type { ToolErrorCode } from './tool-error-code.js';

const TOOL_RESULT_BRAND = Symbol.for('milpa.ToolResult');

/** The `meta` map of a {@link ToolResult}. Keys are snake_case on the wire. */
export type ToolResultMeta = Readonly<Record<string, unknown>>;

/** Pagination block written by {@link ToolResult.paginated} under `meta.pagination`. */
export interface Pagination {
  /** Current page, 1-based. */
  readonly page: number;
  /** `ceil(total_items / limit)`. */
  readonly total_pages: number;
  /** Total number of items across pages. */
  readonly total_items: number;
  /** Items per page. */
  readonly limit: number;
  /** `page > 1`. */
  readonly has_prev: boolean;
  /** `page < total_pages`. */
  readonly has_next: boolean;
}

/** The exact JSON shape of a {@link ToolResult}. */
export interface ToolResultJson<T = unknown> {
  /** Whether the call succeeded. */
  readonly success: boolean;
  /** The payload. */
  readonly data: T;
  /** A human-readable message, or null. */
  readonly message: string | null;
  /** The error message, or null on success. */
  readonly error: string | null;
  /** Metadata: `code`, `type`, standard meta (`tool`, `took_ms`, `request_id`, …). */
  readonly meta: ToolResultMeta;
}

/**
 * The uniform outcome of every tool call: success or failure, never an exception.
 * Instances are immutable (the instance and its `meta` are frozen); use {@link ToolResult.withMeta}
 * to derive a new one. Pipeline errors carry their {@link ToolErrorCode} in `meta.code`.
 *
 * @example
 * const ok = ToolResult.success({ id: 1 }, 'Created successfully');
 * const bad = ToolResult.failure('NOT_FOUND', 'No note with id 7');
 * JSON.stringify(ok); // {"success":true,"data":{"id":1},"message":"Created successfully","error":null,"meta":{}}
 */
export class ToolResult<T = unknown> {
  /** Whether the call succeeded. */
  readonly success: boolean;
  /** The payload (items, details, a value, or null). */
  readonly data: T;
  /** A human-readable message, or null. */
  readonly message: string | null;
  /** The error message, or null on success. */
  readonly error: string | null;
  /** Metadata; never mutated after construction. */
  readonly meta: ToolResultMeta;
  /** How the call ended; see {@link ToolResult.outcome}. A private field: invisible to JSON and to equality checks. */
  readonly #outcome: CallOutcome | null;

  /**
   * Fields in wire order: `success, data, message, error, meta`. Prefer the static factories, which
   * set `meta` consistently.
   */
  constructor(
    success: boolean,
    data: T = null as T,
    message: string | null = null,
    error: string | null = null,
    meta: ToolResultMeta = {},
    outcome: CallOutcome | null = null,
  ) {
    this.success = success;
    this.data = data;
    this.message = message;
    this.error = error;
    this.meta = Object.isFrozen(meta) ? meta : Object.freeze({ ...meta });
    this.#outcome = outcome;
    Object.freeze(this);
  }

  /**
   * A successful result. `meta` is kept exactly as given (no `type` is added).
   * @example ToolResult.success({ id: 1 }, 'Created successfully')
   */
  static success<T = null>(data: T = null as T, message: string | null = null, meta: ToolResultMeta = {}): ToolResult<T> {
    return new ToolResult(true, data, message, null, meta);
  }

  /**
   * A failed result: `success` false, `message` null, `meta.type` forced to `'error'`.
   * Put the error code in `meta.code`, or use {@link ToolResult.failure}.
   */
  static error<T = null>(error: string, data: T = null as T, meta: ToolResultMeta = {}): ToolResult<T> {
    return new ToolResult(false, data, null, error, { ...meta, type: 'error' });
  }

  /**
   * A failed result carrying a typed error code in `meta.code` (and `meta.type: 'error'`).
   * @example ToolResult.failure('CONFLICT', 'Request r-1 is already resolved')
   */
  static failure<T = null>(code: ToolErrorCode, error: string, data: T = null as T, meta: ToolResultMeta = {}): ToolResult<T> {
    return new ToolResult(false, data, null, error, { ...meta, code, type: 'error' });
  }

  /**
   * A page of items: `data` is the items, `meta.type` is `'list'` and `meta.pagination` is
   * computed. `type` and `pagination` always win over `extraMeta`.
   * @throws MilpaError `INVALID_ARGUMENT` when `limit` is not a positive number.
   */
  static paginated<T>(
    items: readonly T[],
    page: number,
    totalItems: number,
    limit: number,
    message: string | null = null,
    extraMeta: ToolResultMeta = {},
  ): ToolResult<readonly T[]> {
    if (!(typeof limit === 'number' && Number.isFinite(limit) && limit > 0)) {
      throw new MilpaError(`ToolResult.paginated() needs a positive limit, got ${String(limit)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    const totalPages = Math.ceil(totalItems / limit);
    const pagination: Pagination = {
      page,
      total_pages: totalPages,
      total_items: totalItems,
      limit,
      has_prev: page > 1,
      has_next: page < totalPages,
    };
    return new ToolResult(true, items, message, null, { ...extraMeta, type: 'list', pagination });
  }

  /** One entity with optional actions: `meta` is `{type:'detail', entity, actions}`. */
  static detail<T>(item: T, entity: string, message: string | null = null, actions: readonly string[] = []): ToolResult<T> {
    return new ToolResult(true, item, message, null, { type: 'detail', entity, actions });
  }

  /**
   * A request for confirmation: `success` true, `data` the details, `meta`
   * `{type:'confirmation', requires_confirmation:true, action, target, target_id}`.
   */
  static confirmation<T>(message: string, details: T, action: string, target: string, targetId: unknown): ToolResult<T> {
    return new ToolResult(true, details, message, null, {
      type: 'confirmation',
      requires_confirmation: true,
      action,
      target,
      target_id: targetId,
    });
  }

  /** A refusal by a rule or listener: `meta` is `{type:'blocked', blocked_by_rule:true, suggestion}`. */
  static blocked(reason: string, suggestion: string | null = null): ToolResult<null> {
    return new ToolResult(false, null, null, reason, { type: 'blocked', blocked_by_rule: true, suggestion });
  }

  /**
   * Rich content (text, image, audio, embedded resources): `data` is the blocks and `meta.type` is
   * `'content'`. The MCP channel passes the blocks through unchanged; other renderers show text.
   * @throws MilpaError `INVALID_ARGUMENT` when `blocks` is not an array or a block does not have a known shape.
   */
  static content(
    blocks: readonly ContentBlock[],
    message: string | null = null,
    meta: ToolResultMeta = {},
  ): ToolResult<readonly ContentBlock[]> {
    if (!Array.isArray(blocks)) {
      throw new MilpaError('ToolResult.content() expects an array of content blocks.', { code: 'INVALID_ARGUMENT' });
    }
    const index = blocks.findIndex((block) => !isContentBlock(block));
    if (index !== -1) {
      throw new MilpaError(`ToolResult.content() got an invalid content block at index ${index}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    return new ToolResult(true, Object.freeze([...blocks]), message, null, { ...meta, type: 'content' });
  }

  /**
   * How the call ended, set by the pipeline where the call ended; null for a result that did not
   * come out of a registry's `call` (one a handler builds, say). Not part of the JSON shape, and
   * not an own property, so results compare by their wire fields.
   */
  get outcome(): CallOutcome | null {
    return this.#outcome;
  }

  /**
   * True when `value` is a `ToolResult` from any copy of `@milpa/core`.
   */
  static isToolResult(value: unknown): value is ToolResult {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_RESULT_BRAND] === true;
  }

  /** True when `meta.requires_confirmation === true`. */
  requiresConfirmation(): boolean {
    return this.meta['requires_confirmation'] === true;
  }

  /** True when `meta.blocked_by_rule === true`. */
  isBlocked(): boolean {
    return this.meta['blocked_by_rule'] === true;
  }

  /** `meta.type`, or `'generic'`. */
  getType(): string {
    const type = this.meta['type'];
    return typeof type === 'string' ? type : 'generic';
  }

  /** `meta.code` when it is set, else null. */
  getCode(): string | null {
    const code = this.meta['code'];
    return typeof code === 'string' ? code : null;
  }

  /** `meta.pagination`, or null. */
  getPagination(): Pagination | null {
    const pagination = this.meta['pagination'];
    return typeof pagination === 'object' && pagination !== null ? (pagination as Pagination) : null;
  }

  /** `meta.actions`, or `[]`. */
  getActions(): readonly string[] {
    const actions = this.meta['actions'];
    return Array.isArray(actions) ? (actions as readonly string[]) : [];
  }

  /** `data.confirm_token` when `data` is an object holding a string token, else null. */
  getConfirmToken(): string | null {
    const data = this.data as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    const token = (data as Record<string, unknown>)['confirm_token'];
    return typeof token === 'string' ? token : null;
  }

  /** The content blocks of a {@link ToolResult.content} result, else null. */
  getContent(): readonly ContentBlock[] | null {
    return this.getType() === 'content' && Array.isArray(this.data) ? (this.data as readonly ContentBlock[]) : null;
  }

  /** A new result whose meta is this meta with `extra` merged over it (the outcome kept); this one is unchanged. */
  withMeta(extra: ToolResultMeta): ToolResult<T> {
    return new ToolResult(this.success, this.data, this.message, this.error, { ...this.meta, ...extra }, this.outcome);
  }

  /** The same result carrying `outcome`: the pipeline sets it once, where the call ends. */
  withOutcome(outcome: CallOutcome): ToolResult<T> {
    return new ToolResult(this.success, this.data, this.message, this.error, this.meta, outcome);
  }

  /** The held call's approval id and expiry when the call waits for an approval, else null. */
  getPendingApproval(): ApprovalPendingOutcome | null {
    return this.outcome?.kind === 'approval_pending' ? this.outcome : null;
  }

  /** The confirmation token, summary and expiry when the call waits for a confirmation, else null. */
  getConfirmationRequest(): ConfirmationRequiredOutcome | null {
    return this.outcome?.kind === 'confirmation_required' ? this.outcome : null;
  }

  /** The refusal's name, code and reason when a check refused the call, else null. */
  getRefusal(): RefusedOutcome | null {
    return this.outcome?.kind === 'refused' ? this.outcome : null;
  }

  /** Exactly `{success, data, message, error, meta}`. */
  toJSON(): ToolResultJson<T> {
    return {
      success: this.success,
      data: this.data,
      message: this.message,
      error: this.error,
      meta: this.meta,
    };
  }

  /** Pretty-printed JSON of {@link ToolResult.toJSON} (unicode unescaped). */
  toJson(): string {
    return JSON.stringify(this.toJSON(), null, 2);
  }
}

Object.defineProperty(ToolResult.prototype, TOOL_RESULT_BRAND, { value: true });
