import type { IdempotencyBegin, IdempotencyClaim, IdempotencyRecord } from '../contracts/idempotency-store.js';
import type { ToolResultJson } from '../result/tool-result.js';

/** True when `record` is forgotten at `at` (its key is free again). */
function forgotten(record: IdempotencyRecord, at: Date): boolean {
  return record.forgetAt.getTime() <= at.getTime();
}

/**
 * The rule of {@link IdempotencyStore.begin}, as a pure function: given the key's current record
 * (null when unknown) and a claim, what `begin` answers and the record to store (null: store
 * nothing). A store runs it inside its atomic step, so every store answers alike.
 *
 * Order: a free or forgotten key is `started` (a new in-flight record); then the binding (tool,
 * principal, arguments digest) must match, else `conflict`; then a completed key is a `replay`; an
 * in-flight one is `in_flight` until its lease ends and `abandoned` after.
 *
 * @example
 * const { answer, next } = decideIdempotencyBegin(current, claim);
 * if (next !== null) save(next);
 * return answer;
 */
export function decideIdempotencyBegin(
  record: IdempotencyRecord | null,
  claim: IdempotencyClaim,
): { readonly answer: IdempotencyBegin; readonly next: IdempotencyRecord | null } {
  if (record === null || forgotten(record, claim.at)) {
    const at = claim.at.getTime();
    const next: IdempotencyRecord = Object.freeze({
      key: claim.key,
      toolName: claim.toolName,
      principal: claim.principal,
      argumentsDigest: claim.argumentsDigest,
      state: 'in_flight',
      owner: claim.owner,
      result: null,
      startedAt: new Date(at),
      leaseExpiresAt: new Date(at + claim.leaseMs),
      forgetAt: new Date(at + claim.leaseMs + claim.retentionMs),
    });
    return { answer: { status: 'started' }, next };
  }
  if (record.toolName !== claim.toolName) return { answer: { status: 'conflict', reason: 'tool_differs' }, next: null };
  if (record.principal !== claim.principal) return { answer: { status: 'conflict', reason: 'principal_differs' }, next: null };
  if (record.argumentsDigest !== claim.argumentsDigest) return { answer: { status: 'conflict', reason: 'arguments_differ' }, next: null };
  if (record.state === 'completed' && record.result !== null) return { answer: { status: 'replay', result: record.result }, next: null };
  if (claim.at.getTime() <= record.leaseExpiresAt.getTime()) return { answer: { status: 'in_flight' }, next: null };
  return { answer: { status: 'abandoned' }, next: null };
}

/**
 * The rule of {@link IdempotencyStore.complete}: the completed record, or null when `owner` does
 * not hold the key in flight (unknown, forgotten, completed, or another owner's).
 */
export function completeIdempotencyRecord(
  record: IdempotencyRecord | null,
  owner: string,
  result: ToolResultJson,
  at: Date,
  retentionMs: number,
): IdempotencyRecord | null {
  if (record === null || forgotten(record, at) || record.state !== 'in_flight' || record.owner !== owner) return null;
  return Object.freeze({ ...record, state: 'completed', result, forgetAt: new Date(at.getTime() + retentionMs) });
}

/** The rule of {@link IdempotencyStore.release}: true when `owner` holds the key in flight, so the store deletes it. */
export function mayReleaseIdempotencyRecord(record: IdempotencyRecord | null, owner: string, at: Date): boolean {
  return record !== null && !forgotten(record, at) && record.state === 'in_flight' && record.owner === owner;
}
