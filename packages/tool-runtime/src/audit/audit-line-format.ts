import type { LogLevel, ToolContext, ToolExecutedEvent, ToolFailedEvent } from '@milpa/core';

// The small formatting rules of audit lines, shared by every line the audit logger writes.

/** The outcomes written by {@link ToolAuditLogger.logOutcome}: the paths that end before or instead of the handler. */
export type ExtraOutcome =
  | 'not_found'
  | 'refused'
  | 'plan'
  | 'confirmation_requested'
  | 'invalid_token'
  | 'vetoed'
  | 'internal_error'
  | 'approval_denied'
  | 'approval_pending'
  | 'approval_invalid'
  | 'replayed';

/** Level and default code of each outcome `logOutcome` writes. */
export const EXTRA_OUTCOMES: Readonly<Record<ExtraOutcome, { readonly level: LogLevel; readonly code: string | null }>> = Object.freeze({
  not_found: { level: 'warn', code: 'TOOL_NOT_FOUND' },
  refused: { level: 'warn', code: 'FORBIDDEN' },
  plan: { level: 'info', code: null },
  confirmation_requested: { level: 'info', code: null },
  invalid_token: { level: 'warn', code: 'VALIDATION_ERROR' },
  vetoed: { level: 'warn', code: null },
  internal_error: { level: 'error', code: 'INTERNAL_ERROR' },
  approval_denied: { level: 'warn', code: 'APPROVAL_DENIED' },
  approval_pending: { level: 'info', code: 'APPROVAL_PENDING' },
  approval_invalid: { level: 'warn', code: 'APPROVAL_INVALID' },
  replayed: { level: 'info', code: null },
});

// Control characters in a caller-supplied field (a principal with a newline) could forge extra
// lines in a plain-text log; they are escaped in messages (the structured record keeps the value).
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f\u2028\u2029]/g;

const HAS_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f\u2028\u2029]/;

// JSON's short escapes; every other control character becomes `\uXXXX`. JSON.stringify itself
// would leave U+007F, U+2028 and U+2029 as they are, and some viewers break lines at the last two.
const SHORT_ESCAPES: Readonly<Record<string, string>> = Object.freeze({ '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' });

function escapeControlCharacter(character: string): string {
  return SHORT_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Up to this length a loop over the characters is cheaper than a regular expression's test. */
const SHORT_TEXT = 64;

/** True when `text` holds a character {@link clean} escapes. */
function hasControlCharacter(text: string): boolean {
  if (text.length > SHORT_TEXT) return HAS_CONTROL_CHARACTERS.test(text);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

/** `text` with control characters escaped, so a caller-supplied field cannot forge log lines. */
export function clean(text: string): string {
  // Most fields have nothing to escape: a test is much cheaper than a replace with a callback.
  if (!hasControlCharacter(text)) return text;
  return text.replace(CONTROL_CHARACTERS, escapeControlCharacter);
}

/**
 * JSON text with the line-breaking characters `JSON.stringify` leaves as they are (U+007F, U+2028,
 * U+2029) escaped; it escapes every other control character itself.
 */
export function cleanJson(json: string): string {
  // JSON text holds no raw character below U+0020, so cleaning it escapes exactly these three.
  return clean(json);
}

/** A duration as whole milliseconds (0 for anything that is not a positive number). */
export function wholeMs(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** The principal as printed in a line: `anonymous` for none. */
export function principalLabel(principal: string | null): string {
  return principal === null || principal === '' ? 'anonymous' : principal;
}

/** JSON of a value that may not serialize, without ever throwing. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"[unserializable]"';
  }
}

/** True for an object shaped like a `ToolExecutedEvent`. */
export function isExecutedEvent(value: unknown): value is ToolExecutedEvent {
  const event = value as Partial<ToolExecutedEvent> | null;
  return typeof event?.name === 'string' && typeof event.context === 'object' && typeof event.result === 'object' && event.result !== null;
}

/** True for an object shaped like a `ToolFailedEvent`. */
export function isFailedEvent(value: unknown): value is ToolFailedEvent {
  const event = value as Partial<ToolFailedEvent> | null;
  return typeof event?.name === 'string' && typeof event.context === 'object' && event.context !== null;
}

/**
 * The soft-timeout warning's message and context map (`tool`, `execution_time`, `timeout_limit`,
 * `principal`, `channel`, `request_id`); `head` is the line's `{request_id} | {channel} | {tool}`.
 */
export function timeoutLine(
  context: ToolContext,
  tool: string,
  head: string,
  seconds: number,
  limitSeconds: number,
): { message: string; logContext: Record<string, unknown> } {
  const execution = typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : 0;
  const limit = typeof limitSeconds === 'number' && Number.isFinite(limitSeconds) ? limitSeconds : 0;
  return {
    message: `[ToolRuntime] Timeout exceeded | ${head} | execution=${execution.toFixed(3)}s | limit=${limit}s`,
    logContext: {
      tool,
      execution_time: Math.round(execution * 1000) / 1000,
      timeout_limit: limit,
      principal: context.principal,
      channel: context.channel,
      request_id: context.requestId,
    },
  };
}
