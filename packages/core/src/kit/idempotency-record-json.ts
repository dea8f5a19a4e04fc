import type { IdempotencyRecord } from '../contracts/idempotency-store.js';
import type { ToolResultJson } from '../result/tool-result.js';
import { isRecord } from './is-record.js';

/**
 * An idempotency record as a durable store keeps it: plain JSON data, times as epoch milliseconds.
 * Write it with {@link idempotencyRecordToJson}, read it back with {@link readIdempotencyRecordJson}.
 */
export interface IdempotencyRecordJson {
  /** The key as stored. */
  readonly key: string;
  /** The tool of the first call. */
  readonly toolName: string;
  /** The principal of the first call, or null. */
  readonly principal: string | null;
  /** The digest of the first call's arguments. */
  readonly argumentsDigest: string;
  /** `in_flight` or `completed`. */
  readonly state: 'in_flight' | 'completed';
  /** The id of the call that runs (or ran) it. */
  readonly owner: string;
  /** The first call's result, null while in flight. */
  readonly result: ToolResultJson | null;
  /** When the first call started. */
  readonly startedAt: number;
  /** When an in-flight call's outcome starts to count as unknown. */
  readonly leaseExpiresAt: number;
  /** When the key is forgotten. */
  readonly forgetAt: number;
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

function isResultJson(value: unknown): value is ToolResultJson {
  if (!isRecord(value)) return false;
  const { success, message, error, meta } = value;
  return typeof success === 'boolean' && isTextOrNull(message) && isTextOrNull(error) && isRecord(meta);
}

/**
 * `record` as plain data for a durable store (times as epoch milliseconds); the store still checks
 * that the result is plain JSON when it serialises it.
 *
 * @example
 * const text = JSON.stringify(idempotencyRecordToJson(record));
 */
export function idempotencyRecordToJson(record: IdempotencyRecord): IdempotencyRecordJson {
  return {
    key: record.key,
    toolName: record.toolName,
    principal: record.principal,
    argumentsDigest: record.argumentsDigest,
    state: record.state,
    owner: record.owner,
    result: record.result,
    startedAt: record.startedAt.getTime(),
    leaseExpiresAt: record.leaseExpiresAt.getTime(),
    forgetAt: record.forgetAt.getTime(),
  };
}

/**
 * Reads a record back from what {@link idempotencyRecordToJson} wrote (already parsed from JSON);
 * null when `stored` is not such a record (a store reports that as a malformed row, never guessing).
 *
 * @example
 * const record = readIdempotencyRecordJson(JSON.parse(text));
 */
export function readIdempotencyRecordJson(stored: unknown): IdempotencyRecord | null {
  if (!isRecord(stored)) return null;
  const { key, toolName, principal, argumentsDigest, state, owner, result, startedAt, leaseExpiresAt, forgetAt } = stored;
  if (
    typeof key !== 'string' ||
    typeof toolName !== 'string' ||
    !isTextOrNull(principal) ||
    typeof argumentsDigest !== 'string' ||
    (state !== 'in_flight' && state !== 'completed') ||
    typeof owner !== 'string' ||
    !(result === null || isResultJson(result)) ||
    (state === 'completed') !== (result !== null) ||
    !isTime(startedAt) ||
    !isTime(leaseExpiresAt) ||
    !isTime(forgetAt)
  ) {
    return null;
  }
  return Object.freeze({
    key,
    toolName,
    principal,
    argumentsDigest,
    state,
    owner,
    result,
    startedAt: new Date(startedAt),
    leaseExpiresAt: new Date(leaseExpiresAt),
    forgetAt: new Date(forgetAt),
  });
}
