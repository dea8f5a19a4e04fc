import { MilpaError, type ApprovalGate, type ApprovalStore } from '@milpa/core';

/** What {@link ApprovalSettings} is built from: the registry's approval options. */
export interface ApprovalSettingsInit {
  /** The gate for every tool without an entry in `gates`; null for none. */
  readonly gate: ApprovalGate | null;
  /** Per-tool gates by tool name; null turns the gate off for that tool. */
  readonly gates: Readonly<Record<string, ApprovalGate | null>>;
  /** Where held calls live. */
  readonly store: ApprovalStore;
  /** Seconds a held call stays resumable when its gate sets no expiry. */
  readonly ttlSeconds: number;
}

function invalid(message: string): MilpaError {
  return new MilpaError(`ToolRegistry option ${message}`, { code: 'INVALID_ARGUMENT' });
}

function isGate(value: unknown): value is ApprovalGate {
  return typeof value === 'object' && value !== null && typeof (value as { check?: unknown }).check === 'function';
}

function isStore(value: unknown): value is ApprovalStore {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as Partial<Record<keyof ApprovalStore, unknown>>;
  return typeof store.open === 'function' && typeof store.get === 'function' && typeof store.redeem === 'function';
}

/**
 * The registry's approval wiring, checked once at construction: which gate each tool has, where
 * held calls live and how long they stay resumable.
 */
export class ApprovalSettings {
  /** Where held calls live. */
  readonly store: ApprovalStore;
  /** Milliseconds a held call stays resumable when its gate sets no expiry. */
  readonly ttlMs: number;
  readonly #gate: ApprovalGate | null;
  readonly #gates: ReadonlyMap<string, ApprovalGate | null>;

  /**
   * @throws MilpaError `INVALID_ARGUMENT` for a gate without `check`, a store without `open`, `get`
   *   and `redeem`, or a TTL that is not a whole number of seconds ≥ 1.
   */
  constructor(init: ApprovalSettingsInit) {
    if (init.gate !== null && !isGate(init.gate)) throw invalid('approvalGate must have a check(request) function.');
    if (typeof init.gates !== 'object' || init.gates === null) throw invalid('approvalGates must map tool names to gates (or null).');
    const gates = new Map<string, ApprovalGate | null>();
    for (const [name, gate] of Object.entries(init.gates)) {
      if (gate !== null && !isGate(gate)) throw invalid(`approvalGates['${name}'] must have a check(request) function, or be null.`);
      gates.set(name, gate);
    }
    if (!isStore(init.store)) throw invalid('approvalStore must have open, get and redeem functions.');
    const ttl = init.ttlSeconds;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1)
      throw invalid(`approvalTtlSeconds must be a whole number of seconds >= 1, got ${String(ttl)}.`);
    this.#gate = init.gate;
    this.#gates = gates;
    this.store = init.store;
    this.ttlMs = ttl * 1000;
  }

  /** The gate consulted for `toolName`'s mutating calls, or null when none is. */
  gateFor(toolName: string): ApprovalGate | null {
    const own = this.#gates.get(toolName);
    return own === undefined ? this.#gate : own;
  }
}
