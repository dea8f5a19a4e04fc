import { MilpaError } from '@milpa/core';
import type { ConsoleSession, ConsoleSessionStore } from './console-session-store.js';

/** Options of {@link InMemoryConsoleSessionStore}. */
export interface InMemoryConsoleSessionStoreOptions {
  /** How many sessions are kept at most; past it the oldest is ended first. Default 10,000. */
  readonly maxSessions?: number;
}

const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * Console sessions in this process's memory, at most `maxSessions` of them (the oldest begun is
 * ended first, so endless sign-ins cannot exhaust memory). Processes behind one address need a
 * shared {@link ConsoleSessionStore} instead.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `maxSessions` is not a whole number of at least 1.
 * @example
 * const auth = tokenAuthentication({ tokens, sessionStore: new InMemoryConsoleSessionStore({ maxSessions: 1000 }) });
 */
export class InMemoryConsoleSessionStore implements ConsoleSessionStore {
  readonly #sessions = new Map<string, ConsoleSession>();
  readonly #maxSessions: number;

  /** An empty store holding at most `options.maxSessions` sessions. */
  constructor(options: InMemoryConsoleSessionStoreOptions = {}) {
    const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (!(Number.isSafeInteger(maxSessions) && maxSessions >= 1)) {
      throw new MilpaError(`InMemoryConsoleSessionStore maxSessions must be a whole number of at least 1, got ${String(maxSessions)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#maxSessions = maxSessions;
  }

  /** How many sessions are kept now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Keeps `session`, ending the oldest one when the store is full. */
  create(session: ConsoleSession): void {
    this.#sessions.delete(session.key);
    this.#sessions.set(session.key, session);
    while (this.#sessions.size > this.#maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
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
    this.#sessions.delete(key);
  }
}
