/** One signed-in approver's session, as a {@link ConsoleSessionStore} keeps it. */
export interface ConsoleSession {
  /**
   * The session's key: a SHA-256 digest (base64url) of the opaque id in the approver's cookie, so
   * a store that leaks never hands out a cookie that signs anyone in.
   */
  readonly key: string;
  /** Who signed in. */
  readonly principal: string;
  /**
   * What signed them in (for token sign-in, a digest of the token, never the token): checked on
   * every use, so removing the credential ends its sessions.
   */
  readonly credential: string;
  /** When the session began (ms since the epoch); it ends at the absolute lifetime after this. */
  readonly createdAt: number;
  /** When it was last used (ms since the epoch); it ends at the idle lifetime after this. */
  readonly lastUsedAt: number;
}

/**
 * Where console sessions live. The in-memory default suits one process; every process that serves
 * the console behind one address needs the same store (a database or cache the host provides), or
 * a session begun on one is unknown to the others. Methods may be synchronous or answer promises.
 */
export interface ConsoleSessionStore {
  /** Keeps `session` (a new key, never one in use). */
  create(session: ConsoleSession): void | Promise<void>;
  /** The session with `key`, or null when there is none (never begun, revoked or evicted). */
  get(key: string): ConsoleSession | null | Promise<ConsoleSession | null>;
  /** Records that the session `key` was used at `at` (ms since the epoch); unknown keys are ignored. */
  touch(key: string, at: number): void | Promise<void>;
  /** Ends the session `key` at once; unknown keys are ignored. */
  revoke(key: string): void | Promise<void>;
}
