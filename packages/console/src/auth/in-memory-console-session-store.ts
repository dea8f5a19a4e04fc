import { MilpaError } from '@milpa/core';
import type { ConsoleSession, ConsoleSessionStore } from './console-session-store.js';

/** Options of {@link InMemoryConsoleSessionStore}. */
export interface InMemoryConsoleSessionStoreOptions {
  /** How many sessions are kept at most; past it the oldest is ended first. Default 10,000. */
  readonly maxSessions?: number;
  /**
   * How many sessions one credential (one approver's token) keeps at most; past it that
   * credential's oldest session is ended first, so one token signing in again and again cannot
   * push everyone else's sessions out. Default 20.
   */
  readonly maxSessionsPerCredential?: number;
}

const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_MAX_PER_CREDENTIAL = 20;

function wholeNumber(name: string, value: number): number {
  if (!(Number.isSafeInteger(value) && value >= 1)) {
    throw new MilpaError(`InMemoryConsoleSessionStore ${name} must be a whole number of at least 1, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

/**
 * Console sessions in this process's memory, at most `maxSessions` of them (the oldest begun is
 * ended first, so endless sign-ins cannot exhaust memory) and at most `maxSessionsPerCredential`
 * per credential (so one token cannot evict the other approvers). Processes behind one address
 * need a shared {@link ConsoleSessionStore} instead.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `maxSessions` or `maxSessionsPerCredential` is not a whole number of at least 1.
 * @example
 * const auth = tokenAuthentication({ tokens, sessionStore: new InMemoryConsoleSessionStore({ maxSessions: 1000 }) });
 */
export class InMemoryConsoleSessionStore implements ConsoleSessionStore {
  readonly #sessions = new Map<string, ConsoleSession>();
  /** Each credential's session keys, oldest begun first. */
  readonly #byCredential = new Map<string, Set<string>>();
  readonly #maxSessions: number;
  readonly #maxPerCredential: number;

  /** An empty store holding at most `options.maxSessions` sessions. */
  constructor(options: InMemoryConsoleSessionStoreOptions = {}) {
    this.#maxSessions = wholeNumber('maxSessions', options.maxSessions ?? DEFAULT_MAX_SESSIONS);
    this.#maxPerCredential = wholeNumber('maxSessionsPerCredential', options.maxSessionsPerCredential ?? DEFAULT_MAX_PER_CREDENTIAL);
  }

  /** How many sessions are kept now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Keeps `session`, ending its credential's oldest one, then the store's oldest, when either is full. */
  create(session: ConsoleSession): void {
    this.revoke(session.key);
    this.#sessions.set(session.key, session);
    let keys = this.#byCredential.get(session.credential);
    if (keys === undefined) this.#byCredential.set(session.credential, (keys = new Set()));
    keys.add(session.key);
    while (keys.size > this.#maxPerCredential) {
      const oldest = keys.values().next().value;
      if (oldest === undefined) break;
      this.revoke(oldest);
    }
    while (this.#sessions.size > this.#maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.revoke(oldest);
    }
  }

  /** The session with `key`, or null. */
  get(key: string): ConsoleSession | null {
    return this.#sessions.get(key) ?? null;
  }

  /** Records a use of the session `key` at `at`. */
  touch(key: string, at: number): void {
    const session = this.#sessions.get(key);
    // Kept in place: eviction follows the order sessions began, not their last use.
    if (session !== undefined) this.#sessions.set(key, { ...session, lastUsedAt: at });
  }

  /** Ends the session `key`. */
  revoke(key: string): void {
    const session = this.#sessions.get(key);
    if (session === undefined) return;
    this.#sessions.delete(key);
    const keys = this.#byCredential.get(session.credential);
    keys?.delete(key);
    if (keys?.size === 0) this.#byCredential.delete(session.credential);
  }
}
