import type { ApprovalRefusal, ApprovalStore, PendingApproval } from '../contracts/approval-store.js';
import { canonicalJson } from '../kit/canonical-json.js';
import { deepFreeze } from '../kit/deep-freeze.js';
import { MilpaError } from '../errors/milpa-error.js';

/**
 * One tool call a framework asked a person about: the framework's own call id, the tool, the
 * arguments the person saw and the caller. A binding holds exactly this; a redemption must present
 * exactly this again.
 */
export interface BoundToolCall {
  /** The framework's tool call id (the model's call id). */
  readonly toolCallId: string;
  /** The tool called. */
  readonly toolName: string;
  /** The arguments the person was shown; compared by a digest of their canonical JSON. */
  readonly args: unknown;
  /** The calling principal, or null. */
  readonly principal: string | null;
  /** The calling channel. */
  readonly channel: string;
  /** The run the call belongs to, or null. */
  readonly runId: string | null;
}

/**
 * What a binding's id is derived from:
 * - `'call'`: the tool call id alone. A claim by another caller finds the binding and is refused
 *   with the field that differs (`principal_mismatch`, `run_mismatch`, …).
 * - `'caller'`: the tool call id, the tool and the caller. A claim by another caller finds nothing
 *   (`not_found`), and two callers whose frameworks reuse call ids never meet.
 */
export type ApprovalBindingScope = 'call' | 'caller';

/** Options of an {@link ApprovalBinding}. */
export interface ApprovalBindingOptions {
  /** Where bindings are kept: any {@link ApprovalStore} (share one to resume in another process). */
  readonly store: ApprovalStore;
  /** Keeps one adapter's bindings apart from every other use of the store, e.g. `ai-sdk`. */
  readonly namespace: string;
  /** How long a binding may be redeemed, in milliseconds. */
  readonly ttlMs: number;
  /** What a binding's id is derived from (default `'call'`); see {@link ApprovalBindingScope}. */
  readonly scope?: ApprovalBindingScope;
  /** The clock, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * Why a binding cannot let a call run. The store's refusals (`not_found`, `used`, `expired`,
 * `tool_mismatch`, `principal_mismatch`, `channel_mismatch`, `run_mismatch`), plus
 * `arguments_changed` (other arguments than the person saw; the binding stays redeemable) and
 * `unavailable` (the store failed: fail-closed).
 */
export type ApprovalBindingRefusal = ApprovalRefusal | 'arguments_changed' | 'unavailable';

/** What {@link ApprovalBinding.redeem} answers. */
export type ApprovalBindingRedemption =
  /** The call matched its binding, which is now used: run the call, once. */
  | { readonly ok: true; readonly approval: PendingApproval }
  /** Refused; nothing changed (except that a store failure leaves the binding to expire). */
  | { readonly ok: false; readonly refusal: ApprovalBindingRefusal };

/** What {@link ApprovalBinding.bind} did: a new binding, the first one kept, or a store failure. */
export type ApprovalBindingOpening = 'opened' | 'kept' | 'failed';

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function sha256(text: string): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/**
 * The SHA-256 digest (64 hex characters) of `args` as canonical JSON: equal for arguments that
 * differ only in key order, different for any other difference. Null for arguments JSON cannot hold
 * (a cycle, a BigInt), which match nothing. Uses Web Crypto, so it runs in Node, edge runtimes and
 * browsers.
 *
 * @example
 * (await digestArguments({ a: 1, b: 2 })) === (await digestArguments({ b: 2, a: 1 })); // true
 */
export async function digestArguments(args: unknown): Promise<string | null> {
  const text = canonicalJson(args);
  return text === null ? null : sha256(text);
}

/**
 * Binds a framework's tool call to the approval a person gives it in that framework, on an
 * {@link ApprovalStore}: the binding records the call id, the tool, the digest of the arguments the
 * person saw and the caller (principal, channel, run); {@link ApprovalBinding.redeem} lets the same
 * call with the same arguments by the same caller through exactly once, however many redemptions
 * race (the store redeems atomically). A binding's id is derived from the call, so a process that
 * resumes a saved run finds it with no state of its own.
 *
 * @example
 * const binding = new ApprovalBinding({ store, namespace: 'my-adapter', ttlMs: 3_600_000 });
 * await binding.bind(call);                  // when the framework asks the person
 * const redeemed = await binding.redeem(call); // when the approved call is about to run
 * if (!redeemed.ok) refuse(redeemed.refusal);
 */
export class ApprovalBinding {
  readonly #store: ApprovalStore;
  readonly #namespace: string;
  readonly #ttlMs: number;
  readonly #scope: ApprovalBindingScope;
  readonly #now: () => number;

  /** @throws MilpaError `INVALID_ARGUMENT` for a missing store, an empty namespace or a TTL that is not positive. */
  constructor(options: ApprovalBindingOptions) {
    const { store, namespace, ttlMs } = options;
    if (typeof store !== 'object' || store === null || typeof store.open !== 'function' || typeof store.redeem !== 'function') {
      throw new MilpaError('ApprovalBinding needs an approval store (open, get, redeem).', { code: 'INVALID_ARGUMENT' });
    }
    if (typeof namespace !== 'string' || namespace === '') {
      throw new MilpaError('ApprovalBinding needs a namespace.', { code: 'INVALID_ARGUMENT' });
    }
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new MilpaError(`ApprovalBinding ttlMs must be a positive number, got ${String(ttlMs)}.`, { code: 'INVALID_ARGUMENT' });
    }
    this.#store = store;
    this.#namespace = namespace;
    this.#ttlMs = ttlMs;
    this.#scope = options.scope ?? 'call';
    this.#now = options.now ?? Date.now;
  }

  /** The id the binding of `call` is kept under in the store (32 hex characters): a lookup key, not a secret. */
  async idOf(call: Omit<BoundToolCall, 'args'>): Promise<string> {
    const material =
      this.#scope === 'call'
        ? JSON.stringify([call.toolCallId])
        : JSON.stringify([call.toolCallId, call.toolName, call.principal, call.channel, call.runId]);
    return (await sha256(`milpa/approval-binding/${this.#namespace}/${this.#scope}\n${material}`)).slice(0, 32);
  }

  /**
   * Binds `call` as the person is asked about it. A call bound already keeps its first binding (its
   * arguments win): `'kept'`. Never rejects: a store failure, or arguments JSON cannot hold, answer
   * `'failed'`, and such a call can never be redeemed.
   */
  async bind(call: BoundToolCall): Promise<ApprovalBindingOpening> {
    try {
      const digest = await digestArguments(call.args);
      if (digest === null) return 'failed';
      const now = this.#now();
      const approval: PendingApproval = Object.freeze({
        approvalId: await this.idOf(call),
        toolName: call.toolName,
        arguments: deepFreeze(structuredClone(call.args)) as PendingApproval['arguments'],
        argumentsDigest: digest,
        principal: call.principal,
        channel: call.channel,
        runId: call.runId,
        requestId: call.toolCallId,
        createdAt: new Date(now),
        expiresAt: new Date(now + this.#ttlMs),
        redeemedAt: null,
      });
      return (await this.#store.open(approval)) ? 'opened' : 'kept';
    } catch {
      return 'failed';
    }
  }

  /**
   * Lets `call` run once: its binding must exist, hold the digest of exactly these arguments, belong
   * to this tool and caller, and be unused and unexpired; the store then marks it used atomically.
   * Other arguments are refused before the store is asked, so the binding stays with the call the
   * person saw. Never rejects: a failing store refuses (`unavailable`).
   */
  async redeem(call: BoundToolCall): Promise<ApprovalBindingRedemption> {
    try {
      const id = await this.idOf(call);
      const held = await this.#store.get(id);
      if (held === null || held === undefined) return { ok: false, refusal: 'not_found' };
      if (held.argumentsDigest !== (await digestArguments(call.args))) return { ok: false, refusal: 'arguments_changed' };
      const redemption = await this.#store.redeem(id, this.#claimOf(call));
      if (redemption.status === 'redeemed') return { ok: true, approval: redemption.approval };
      if (redemption.status === 'refused' && typeof redemption.refusal === 'string') return { ok: false, refusal: redemption.refusal };
      return { ok: false, refusal: 'unavailable' };
    } catch {
      return { ok: false, refusal: 'unavailable' };
    }
  }

  /**
   * Closes the binding of a call the person rejected (marks it used), so no saved copy of the run
   * can approve it later. A binding that is unknown, used or another caller's is left as it is; a
   * failing store leaves it to expire. Never rejects.
   */
  async close(call: Omit<BoundToolCall, 'args'>): Promise<void> {
    try {
      await this.#store.redeem(await this.idOf(call), this.#claimOf(call));
    } catch {
      // The binding expires; the rejected call is never asked to run.
    }
  }

  #claimOf(call: Omit<BoundToolCall, 'args'>) {
    return { toolName: call.toolName, principal: call.principal, channel: call.channel, runId: call.runId, at: new Date(this.#now()) };
  }
}
