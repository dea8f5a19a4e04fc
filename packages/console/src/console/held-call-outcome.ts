import type { ApprovalStore, PendingApproval } from '@milpa/core';
import type { ApprovalItem } from './approval-item.js';

/**
 * What became of a held call once it was decided, as the approval store tells:
 * - `not_resumed`: granted, and the agent has not called again yet (it still may, until `expiresAt`);
 * - `resumed`: the agent called again and the call started, and how it ended is not recorded yet;
 * - `succeeded` / `failed`: the resumed call ran and returned a result, or failed with `code`;
 * - `expired`: nobody resumed it before the held call's deadline, so it never ran;
 * - `unknown`: the store does not hold it (forgotten after its retention, or held elsewhere);
 * - `unavailable`: the console has no approval store, or the store failed.
 */
export type HeldCallOutcome =
  | { readonly kind: 'not_resumed'; readonly expiresAt: Date }
  | { readonly kind: 'resumed'; readonly at: Date }
  | { readonly kind: 'succeeded'; readonly at: Date }
  | { readonly kind: 'failed'; readonly code: string; readonly at: Date }
  | { readonly kind: 'expired'; readonly expiresAt: Date }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'unavailable' };

function isDate(value: unknown): value is Date {
  return value instanceof Date && Number.isFinite(value.getTime());
}

/** The outcome of `held` at `now`; a record that is not this item's call reads as unknown. */
export function outcomeOf(item: ApprovalItem, held: PendingApproval | null | undefined, now: number): HeldCallOutcome {
  // The store's record must be the call this item holds: the same tool, asked by the same principal.
  if (held === null || held === undefined || held.toolName !== item.tool || held.principal !== item.requester) return { kind: 'unknown' };
  const settlement = held.settlement ?? null;
  if (settlement !== null && isDate(settlement.at)) {
    if (settlement.outcome === 'succeeded') return { kind: 'succeeded', at: settlement.at };
    return { kind: 'failed', code: typeof settlement.code === 'string' ? settlement.code : 'UNKNOWN', at: settlement.at };
  }
  if (isDate(held.redeemedAt)) return { kind: 'resumed', at: held.redeemedAt };
  if (!isDate(held.expiresAt)) return { kind: 'unknown' };
  return held.expiresAt.getTime() < now
    ? { kind: 'expired', expiresAt: held.expiresAt }
    : { kind: 'not_resumed', expiresAt: held.expiresAt };
}

/**
 * Reads what became of `item` from the approval store the runtime holds calls in (shared with the
 * runtime, so it may be another process's). Never rejects: no store, or a store that fails, answers
 * `unavailable`.
 */
export async function readHeldCallOutcome(store: ApprovalStore | undefined, item: ApprovalItem, now: number): Promise<HeldCallOutcome> {
  if (store === undefined) return { kind: 'unavailable' };
  try {
    return outcomeOf(item, await store.get(item.id), now);
  } catch {
    return { kind: 'unavailable' };
  }
}
