import type { ToolContext } from '@milpa/core';
import { canonicalJson } from '@milpa/core/kit';

/** A call paused for review: what resumes it once a bound decision arrives. */
export type PausedCall =
  | { readonly kind: 'approval'; readonly approvalId: string; readonly expiresAt: string | null; readonly description: string }
  | { readonly kind: 'confirmation'; readonly token: string; readonly expiresAt: string | null; readonly description: string };

/** How many paused calls one toolkit remembers before it forgets the oldest. */
const MAX_PAUSED_CALLS = 10_000;

/**
 * The calls a toolkit paused, by caller, tool call id, tool and arguments: when LangGraph runs a
 * paused tool again to hand it the reviewer's decision, the call resumes the hold it already has
 * instead of asking the pipeline a second time. A call that comes back with other arguments under
 * the same id is a different call and finds nothing.
 */
export class HeldCalls {
  readonly #paused = new Map<string, PausedCall>();

  /** The key of one call; null when its arguments are not JSON (such a call is never remembered). */
  static keyOf(context: ToolContext, toolCallId: string, toolName: string, args: unknown): string | null {
    return canonicalJson([context.principal, context.channel, context.runId, toolCallId, toolName, args]);
  }

  /** The paused call under `key`, if any. */
  get(key: string | null): PausedCall | undefined {
    return key === null ? undefined : this.#paused.get(key);
  }

  /** Remembers a paused call, forgetting the oldest beyond the bound. */
  set(key: string | null, call: PausedCall): void {
    if (key === null) return;
    this.#paused.delete(key);
    this.#paused.set(key, call);
    if (this.#paused.size > MAX_PAUSED_CALLS) {
      const oldest = this.#paused.keys().next().value;
      if (oldest !== undefined) this.#paused.delete(oldest);
    }
  }

  /** Forgets a call once its decision arrived. */
  delete(key: string | null): void {
    if (key !== null) this.#paused.delete(key);
  }
}
