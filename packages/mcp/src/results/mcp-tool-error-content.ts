import type { ToolErrorCode } from '@milpa/core';

/**
 * The reason code of a refused call on the MCP wire: a `ToolErrorCode` from the pipeline, or one of
 * the channel's own codes — `BLOCKED` (vetoed by a `tool.executing` listener or a rule),
 * `TOOL_ERROR` (a tool reported a failure without a code) and `CONFIRMATION_DECLINED` (the person
 * declined or cancelled the confirmation form). The two-call token flow uses `CONFIRMATION_REQUIRED`.
 */
export type McpToolErrorCode = ToolErrorCode | 'BLOCKED' | 'TOOL_ERROR' | 'CONFIRMATION_DECLINED';

/**
 * Why a call was refused, attached to every `isError: true` result so a model (or a client) can
 * tell refusals apart and correct itself: as `structuredContent` (unless the tool declares an
 * `outputSchema`, which SDK 1.x clients check `structuredContent` against even on errors) and
 * always under `_meta['lat.milpa/error']`.
 *
 * @example
 * { code: 'VALIDATION_ERROR', errors: [{ path: 'title', message: 'Missing required field: title' }] }
 */
export interface McpToolErrorContent {
  /** Why the call was refused. */
  readonly code: McpToolErrorCode;
  /** Field-by-field validation problems, for `VALIDATION_ERROR`. */
  readonly errors?: readonly { readonly path: string; readonly message: string }[];
  /** Seconds until the budget refills, for `RATE_LIMITED`. */
  readonly retry_after_seconds?: number;
  /** The rule's suggestion, for `BLOCKED` when it gave one. */
  readonly suggestion?: string;
  /** The token to replay with, for `CONFIRMATION_REQUIRED`. */
  readonly confirm_token?: string;
  /** What would run, for `CONFIRMATION_REQUIRED` and `CONFIRMATION_DECLINED`. */
  readonly action_summary?: string;
  /**
   * When the token stops being redeemable, for `CONFIRMATION_REQUIRED`; when the held call does,
   * for `APPROVAL_PENDING`.
   */
  readonly expires_at?: string;
  /**
   * The id a call held for approval is resumed with, for `APPROVAL_PENDING`: once someone else has
   * approved it, call the same tool again with the same arguments and this `approval_id`.
   */
  readonly approval_id?: string;
  /**
   * Why a presented `approval_id` cannot resume the call, for `APPROVAL_INVALID`: `not_found`,
   * `used`, `expired`, `tool_mismatch`, `principal_mismatch`, `channel_mismatch`, `run_mismatch`,
   * `arguments_changed` or `changes_invalid`.
   */
  readonly approval_refusal?: string;
}

/** The `_meta` key under which every tool error result carries its {@link McpToolErrorContent}. */
export const MCP_ERROR_META_KEY = 'lat.milpa/error';
