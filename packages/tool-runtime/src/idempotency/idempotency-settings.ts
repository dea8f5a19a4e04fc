import { MilpaError, type IdempotencyStore } from '@milpa/core';

/** What {@link IdempotencySettings} is built from: the registry's idempotency options. */
export interface IdempotencySettingsInit {
  /** Where idempotency keys live. */
  readonly store: IdempotencyStore;
  /** Seconds a key (and its result) is kept after its call completes. */
  readonly retentionSeconds: number;
  /** Seconds a first call may stay in flight before its outcome counts as unknown. */
  readonly leaseSeconds: number;
}

function invalid(message: string): MilpaError {
  return new MilpaError(`ToolRegistry option ${message}`, { code: 'INVALID_ARGUMENT' });
}

function isStore(value: unknown): value is IdempotencyStore {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as Partial<Record<keyof IdempotencyStore, unknown>>;
  return (
    typeof store.begin === 'function' &&
    typeof store.complete === 'function' &&
    typeof store.release === 'function' &&
    typeof store.get === 'function'
  );
}

function wholeSeconds(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalid(`${name} must be a whole number of seconds >= 1, got ${String(value)}.`);
  return value;
}

/** The registry's idempotency wiring, checked once at construction. */
export class IdempotencySettings {
  /** Where idempotency keys live. */
  readonly store: IdempotencyStore;
  /** Milliseconds a completed key is kept. */
  readonly retentionMs: number;
  /** Milliseconds a first call may stay in flight. */
  readonly leaseMs: number;

  /** @throws MilpaError `INVALID_ARGUMENT` for a store without begin/complete/release/get or a duration that is not whole seconds ≥ 1. */
  constructor(init: IdempotencySettingsInit) {
    if (!isStore(init.store)) throw invalid('idempotencyStore must have begin, complete, release and get functions.');
    this.store = init.store;
    this.retentionMs = wholeSeconds('idempotencyRetentionSeconds', init.retentionSeconds) * 1000;
    this.leaseMs = wholeSeconds('idempotencyLeaseSeconds', init.leaseSeconds) * 1000;
  }
}
