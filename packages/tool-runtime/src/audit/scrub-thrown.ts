import { REDACTED } from './redactor.js';

/** What {@link scrubThrown} cleans with: free text, and any other value (a redacted, scrubbed copy). */
export interface ThrownScrubbers {
  /** `text` without the call's secrets. */
  readonly text: (text: string) => string;
  /** A copy of `value` without the call's secrets. */
  readonly value: (value: unknown) => unknown;
}

/** The own enumerable fields of an error (`code`, `status`, …), or null when it has none. */
function extraFieldsOf(error: Error): Record<string, unknown> | null {
  const keys = Object.keys(error);
  if (keys.length === 0) return null;
  const fields: Record<string, unknown> = {};
  for (const key of keys) {
    if (key === 'name' || key === 'message' || key === 'stack') continue;
    fields[key] = (error as unknown as Record<string, unknown>)[key];
  }
  return fields;
}

function scrubError(error: Error, scrub: ThrownScrubbers): Error {
  const message = error.message;
  const stack = error.stack;
  const safeMessage = scrub.text(String(message));
  const safeStack = typeof stack === 'string' ? scrub.text(stack) : undefined;
  const extra = extraFieldsOf(error);
  // A cause may hold anything (the arguments themselves): an error with one is never passed on as it is.
  const clean = safeMessage === message && safeStack === stack && extra === null && !('cause' in error);
  if (clean) return error;
  const copy = new Error(safeMessage);
  Object.defineProperty(copy, 'name', { value: String(error.name), writable: true, enumerable: false, configurable: true });
  Object.defineProperty(copy, 'stack', { value: safeStack, writable: true, enumerable: false, configurable: true });
  if (extra !== null) {
    const safeExtra = scrub.value(extra);
    if (typeof safeExtra === 'object' && safeExtra !== null) Object.assign(copy, safeExtra);
  }
  return copy;
}

/**
 * What a handler threw, safe to hand to listeners of `tool.failed`: an `Error` whose message and
 * stack hold no secret (and with no `cause` nor own fields) as it is; any other `Error` as a plain
 * `Error` of the same `name` with its message and stack scrubbed, its own fields scrubbed and its
 * `cause` dropped; a string scrubbed; any other value as a redacted, scrubbed copy. Never throws.
 *
 * @example
 * scrubThrown(new Error('bad password hunter2'), scrubbers).message; // 'bad password ***REDACTED***'
 */
export function scrubThrown(thrown: unknown, scrub: ThrownScrubbers): unknown {
  try {
    if (thrown instanceof Error) return scrubError(thrown, scrub);
    if (typeof thrown === 'string') return scrub.text(thrown);
    if (typeof thrown === 'number' || typeof thrown === 'bigint') {
      const text = String(thrown);
      return scrub.text(text) === text ? thrown : REDACTED;
    }
    if (typeof thrown !== 'object' || thrown === null) return thrown;
    return scrub.value(thrown);
  } catch {
    return new Error(REDACTED);
  }
}
