import { deepFreeze } from '@milpa/core/kit';
import {
  ExpiringMap,
  MilpaError,
  generateRandomId,
  type ConfirmationBinding,
  type ConfirmationStore,
  type ConfirmationToken,
  type ToolArgs,
} from '@milpa/core';

/** Options of {@link ConfirmationTokenStore}. */
export interface ConfirmationTokenStoreOptions {
  /** Seconds a token stays redeemable after the second it was minted in. Default 60. */
  readonly ttlSeconds?: number;
}

interface PendingConfirmation {
  readonly toolName: string;
  readonly args: ToolArgs;
  readonly actionSummary: string;
  readonly principal: string | null;
  readonly channel: string;
}

function invalid(message: string, cause?: unknown): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT', cause });
}

function nowSecond(): number {
  return Math.floor(Date.now() / 1000);
}

function requireTtl(seconds: unknown): number {
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1) {
    throw invalid(`Confirmation TTL must be a whole number of seconds, at least 1; got ${String(seconds)}.`);
  }
  return seconds;
}

function isBinding(binding: unknown): binding is ConfirmationBinding {
  if (typeof binding !== 'object' || binding === null) return false;
  const candidate = binding as Partial<ConfirmationBinding>;
  return typeof candidate.channel === 'string' && (candidate.principal === null || typeof candidate.principal === 'string');
}

/**
 * The in-memory {@link ConfirmationStore}: pending confirmations of one process, each redeemable
 * exactly once, for the same tool, principal and channel that asked, until it expires.
 *
 * - A token is 32 lowercase hex characters (128 random bits) from `generateRandomId`.
 * - It expires at its creation second plus the TTL (60 s by default) and is still valid during
 *   its expiry second; expiry is at whole-second resolution.
 * - The arguments are deep-copied and frozen at creation: the first call's arguments win.
 * - A token presented for another tool, or by another principal or channel, is refused and stays
 *   redeemable by its rightful caller; an expired one is deleted.
 * - Tokens live in an `ExpiringMap`: every `create()`, `consume()` and `isValid()` removes a bounded
 *   number of expired tokens, earliest first, so the map stays bounded by the tokens alive within
 *   one TTL and no call stalls to clear a mass expiry.
 *
 * Everything is synchronous, so a redemption is atomic: however many callers race to redeem one
 * token, exactly one gets the arguments.
 *
 * @example
 * const store = new ConfirmationTokenStore({ ttlSeconds: 120 });
 * const binding = { principal: 'user:7', channel: 'telegram' };
 * const { token } = store.create('delete_note', { id: 42 }, 'delete_note(id=42)', binding);
 * store.consume(token, 'delete_note', binding); // { id: 42 }
 * store.consume(token, 'delete_note', binding); // null — used
 */
export class ConfirmationTokenStore implements ConfirmationStore {
  readonly #pending = new ExpiringMap<string, PendingConfirmation>();
  #ttlSeconds: number;

  /** @throws MilpaError `INVALID_ARGUMENT` for a TTL that is not a whole number of seconds ≥ 1. */
  constructor(options: ConfirmationTokenStoreOptions = {}) {
    this.#ttlSeconds = requireTtl(options.ttlSeconds ?? 60);
  }

  /**
   * Snapshots `args` for `toolName` on behalf of `binding` and returns a new token.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an empty tool name, non-object or non-cloneable args
   *   (functions, symbols), a non-string summary or a malformed binding; nothing is stored then.
   */
  create(toolName: string, args: ToolArgs, actionSummary: string, binding: ConfirmationBinding): ConfirmationToken {
    if (typeof toolName !== 'string' || toolName === '') throw invalid('Confirmation tool name must be a non-empty string.');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalid('Confirmation args must be an object.');
    if (typeof actionSummary !== 'string') throw invalid('Confirmation action summary must be a string.');
    if (!isBinding(binding)) throw invalid('Confirmation binding needs a string channel and a string or null principal.');

    let snapshot: ToolArgs;
    try {
      snapshot = deepFreeze(structuredClone(args));
    } catch (error) {
      throw invalid('Confirmation args must be plain data (structured-cloneable): no functions or symbols.', error);
    }

    const expiresAtSecond = nowSecond() + this.#ttlSeconds;
    let token = generateRandomId();
    while (this.#pending.has(token)) token = generateRandomId();
    // Valid throughout its expiry second: gone from the first millisecond of the next one.
    this.#pending.set(
      token,
      { toolName, args: snapshot, actionSummary, principal: binding.principal, channel: binding.channel },
      (expiresAtSecond + 1) * 1000,
    );
    return Object.freeze({ token, expiresAt: new Date(expiresAtSecond * 1000), actionSummary });
  }

  /**
   * Redeems `token`: returns the stored arguments and forgets the token, or null when the token is
   * not a string, unknown, used, expired (then deleted), or for another tool or caller (then kept).
   * Never throws.
   */
  consume(token: unknown, toolName: string, binding: ConfirmationBinding): ToolArgs | null {
    const pending = this.#redeemable(token, toolName, binding);
    if (pending === null) return null;
    this.#pending.delete(token as string);
    return pending.args;
  }

  /** True when `consume` would succeed now; consumes nothing. Never throws. */
  isValid(token: unknown, toolName: string, binding: ConfirmationBinding): boolean {
    return this.#redeemable(token, toolName, binding) !== null;
  }

  /**
   * Sets the TTL of tokens created from now on; existing tokens keep their expiry.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a TTL that is not a whole number of seconds ≥ 1.
   */
  setTtl(seconds: number): void {
    this.#ttlSeconds = requireTtl(seconds);
  }

  /** The TTL in seconds. */
  getTtl(): number {
    return this.#ttlSeconds;
  }

  /** The number of tokens held, including expired ones not swept yet. */
  size(): number {
    return this.#pending.size;
  }

  #redeemable(token: unknown, toolName: string, binding: ConfirmationBinding): PendingConfirmation | null {
    // A non-string token is looked up as '' (never a token) so that it sweeps like any other call.
    // Stryker disable next-line StringLiteral: equivalent: any string that is not a 32-hex token misses the same way.
    const pending = this.#pending.get(typeof token === 'string' ? token : '');
    if (pending === undefined) return null;
    // A token is bound to its tool and to the caller that asked: anyone else gets a refusal, and
    // the token stays redeemable by its rightful caller (a wrong guess must not burn it).
    if (pending.toolName !== toolName || !isBinding(binding)) return null;
    if (pending.principal !== binding.principal || pending.channel !== binding.channel) return null;
    return pending;
  }
}
