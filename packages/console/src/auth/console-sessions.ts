import { createHash, randomBytes } from 'node:crypto';
import { MilpaError } from '@milpa/core';
import type { ConsoleSession, ConsoleSessionStore } from './console-session-store.js';
import { InMemoryConsoleSessionStore } from './in-memory-console-session-store.js';

/** Options of {@link ConsoleSessions}. */
export interface ConsoleSessionsOptions {
  /** Where sessions are kept; default a new {@link InMemoryConsoleSessionStore} (10,000 sessions). */
  readonly store?: ConsoleSessionStore;
  /** A session unused this long ends; default 30 minutes. Every use starts the wait again. */
  readonly idleTimeoutMs?: number;
  /** A session ends this long after sign-in, however much it is used; default 12 hours. */
  readonly absoluteTimeoutMs?: number;
  /** The clock (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
}

/** 32 random bytes: 256 bits, 43 characters of base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

function keyOf(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}

function positiveMs(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!(Number.isFinite(ms) && ms >= 1)) {
    throw new MilpaError(`Console sessions need a ${name} of at least 1 ms, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return ms;
}

/**
 * Server-side sign-in sessions: `start` makes a new opaque id (256 random bits, base64url) for the
 * cookie, `resolve` answers the live session of a cookie value (refreshing its idle lifetime) and
 * `end` revokes it. The store only ever sees a digest of the id. `tokenAuthentication` uses
 * it; a host with its own sign-in can build its `login` and `authenticate` on it too.
 *
 * @example
 * const sessions = new ConsoleSessions({ store: mySharedStore });
 * const login = {
 *   cookieName: 'approvals_session',
 *   maxAgeSeconds: sessions.maxAgeSeconds,
 *   signIn: async (token) => {
 *     const user = await directory.verify(token);
 *     return user === null ? null : sessions.start(user.principal, user.credentialId);
 *   },
 *   signOut: (id) => sessions.end(id),
 * };
 */
export class ConsoleSessions {
  readonly #store: ConsoleSessionStore;
  readonly #idleTimeoutMs: number;
  readonly #absoluteTimeoutMs: number;
  readonly #now: () => number;

  /**
   * Sessions with `options`' store, lifetimes and clock.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a lifetime below 1 ms.
   */
  constructor(options: ConsoleSessionsOptions = {}) {
    this.#store = options.store ?? new InMemoryConsoleSessionStore();
    this.#idleTimeoutMs = positiveMs('idleTimeoutMs', options.idleTimeoutMs, 30 * 60_000);
    this.#absoluteTimeoutMs = positiveMs('absoluteTimeoutMs', options.absoluteTimeoutMs, 12 * 60 * 60_000);
    this.#now = options.now ?? Date.now;
  }

  /** How long a session lasts at most, in whole seconds (the cookie's `Max-Age`). */
  get maxAgeSeconds(): number {
    return Math.max(1, Math.floor(this.#absoluteTimeoutMs / 1000));
  }

  /** Begins a session for `principal`, signed in by `credential`, and answers its id for the cookie. */
  async start(principal: string, credential: string): Promise<string> {
    const sessionId = randomBytes(32).toString('base64url');
    const at = this.#now();
    await this.#store.create({ key: keyOf(sessionId), principal, credential, createdAt: at, lastUsedAt: at });
    return sessionId;
  }

  /** The live session whose id is `sessionId` (its use recorded), or null: unknown, revoked or expired. */
  async resolve(sessionId: string | undefined): Promise<ConsoleSession | null> {
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return null;
    const key = keyOf(sessionId);
    const session = await this.#store.get(key);
    if (session === null || session.key !== key) return null;
    const at = this.#now();
    if (at - session.lastUsedAt >= this.#idleTimeoutMs || at - session.createdAt >= this.#absoluteTimeoutMs) {
      await this.#store.revoke(key);
      return null;
    }
    await this.#store.touch(key, at);
    return { ...session, lastUsedAt: at };
  }

  /** Revokes the session whose id is `sessionId` (nothing happens for an unknown one). */
  async end(sessionId: string | undefined): Promise<void> {
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return;
    await this.#store.revoke(keyOf(sessionId));
  }
}
