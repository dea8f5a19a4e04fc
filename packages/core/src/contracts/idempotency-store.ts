import type { ToolResultJson } from '../result/tool-result.js';

/**
 * A call that presents an idempotency key: the key (already scoped to the calling principal by the
 * registry), what the call is (tool, principal, digest of its validated arguments), who would run
 * it (`owner`, a fresh random id per call) and when. The durations set the record's lifetime.
 */
export interface IdempotencyClaim {
  /** The key as stored; the registry scopes it to the principal, so principals never share keys. */
  readonly key: string;
  /** The tool called. */
  readonly toolName: string;
  /** The calling principal, or null. */
  readonly principal: string | null;
  /** A digest of the validated arguments. */
  readonly argumentsDigest: string;
  /** A random id of this call: whoever started the key completes or releases it with this id. */
  readonly owner: string;
  /** When the claim is made. */
  readonly at: Date;
  /**
   * How long the first call may stay in flight, in milliseconds; after that its outcome counts as
   * unknown (the process running it may have died) and later calls with the key are refused.
   */
  readonly leaseMs: number;
  /** How long a key is kept after its lease ends or its call completes, in milliseconds. */
  readonly retentionMs: number;
}

/**
 * What an idempotency key holds: the call it was first used for, and, once that call has run, its
 * result. Records are immutable snapshots.
 */
export interface IdempotencyRecord {
  /** The key as stored. */
  readonly key: string;
  /** The tool of the first call. */
  readonly toolName: string;
  /** The principal of the first call, or null. */
  readonly principal: string | null;
  /** The digest of the first call's validated arguments. */
  readonly argumentsDigest: string;
  /** `in_flight` while the first call runs; `completed` once its result is kept. */
  readonly state: 'in_flight' | 'completed';
  /** The id of the call that runs (or ran) it. */
  readonly owner: string;
  /** The first call's result, as JSON; null while in flight. */
  readonly result: ToolResultJson | null;
  /** When the first call started. */
  readonly startedAt: Date;
  /** When an in-flight call's outcome starts to count as unknown. */
  readonly leaseExpiresAt: Date;
  /** When the key is forgotten and free again. */
  readonly forgetAt: Date;
}

/**
 * What {@link IdempotencyStore.begin} decided:
 * - `started`: the key was free; this claim owns it and its call runs (then `complete` or `release`).
 * - `replay`: the first call with this key, for the same tool, principal and arguments, completed;
 *   here is its result. Nothing runs.
 * - `in_flight`: the first call is still running; ask again later.
 * - `conflict`: the key was used for another tool (`tool_differs`), another principal
 *   (`principal_differs`) or other arguments (`arguments_differ`). Nothing runs.
 * - `abandoned`: the first call never completed within its lease: its outcome is unknown, so nothing
 *   runs again under this key.
 */
export type IdempotencyBegin =
  | { readonly status: 'started' }
  | { readonly status: 'replay'; readonly result: ToolResultJson }
  | { readonly status: 'in_flight' }
  | { readonly status: 'conflict'; readonly reason: 'tool_differs' | 'principal_differs' | 'arguments_differ' }
  | { readonly status: 'abandoned' };

/**
 * Keeps idempotency keys: which call first used each key and what it returned, so a retried call
 * gets the first call's result instead of running twice. Implementations may be async (a store
 * shared across processes), but `begin`, `complete` and `release` are each one atomic step per key
 * (apply {@link decideIdempotencyBegin} and its siblings inside it), so however many calls race with
 * one key, exactly one runs.
 */
export interface IdempotencyStore {
  /** Claims the key, or says why not; see {@link IdempotencyBegin}. */
  begin(claim: IdempotencyClaim): IdempotencyBegin | Promise<IdempotencyBegin>;
  /**
   * Keeps `result` (plain JSON data) as the key's answer, kept `retentionMs` after `at`. False (and
   * nothing changed) unless `owner` holds the key in flight.
   */
  complete(key: string, owner: string, result: ToolResultJson, at: Date, retentionMs: number): boolean | Promise<boolean>;
  /** Frees a key whose call ran nothing (it was refused). False (and nothing changed) unless `owner` holds it in flight. */
  release(key: string, owner: string): boolean | Promise<boolean>;
  /** The record of `key`, or null when unknown or forgotten. */
  get(key: string): IdempotencyRecord | null | Promise<IdempotencyRecord | null>;
}
