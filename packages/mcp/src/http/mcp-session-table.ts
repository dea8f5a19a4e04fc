import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One open MCP session over HTTP. */
export interface McpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** The principal that opened the session; every later request must come from the same one. */
  readonly principal: string | null;
  /** The key the session counts under for the per-principal cap. */
  readonly owner: string;
  /** Requests and streams of this session still open; a session with any is never idle. */
  active: number;
  /** When the session last finished a request (or opened). */
  lastActive: number;
}

/** Why a new session cannot be opened. */
export type SessionRefusal = 'server_full' | 'principal_full';

/** A place held for a session being opened: commit it once the session has an id, or release it. */
export interface SessionReservation {
  /** Stores the opened session under `id` (the place becomes the session). */
  commit(id: string, session: McpSession): void;
  /** Gives the place back (the session was not opened); a no-op after commit. */
  release(): void;
}

/** Limits of a {@link McpSessionTable}. */
export interface McpSessionTableLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerPrincipal: number;
  /** A session with no open request or stream for this long is closed. */
  readonly idleMs: number;
  /** Called with each session the table closes because it went idle. */
  readonly onExpire: (session: McpSession) => void;
}

/**
 * The open sessions of an HTTP endpoint, with caps on their number overall and per principal, and
 * idle expiry that counts running requests and open streams as activity: a session is idle only
 * when nothing of it is open and its last request finished more than `idleMs` ago. Sessions being
 * opened hold their place from the start (a reservation), so concurrent `initialize` requests can
 * never overshoot a cap.
 */
export class McpSessionTable {
  readonly #limits: McpSessionTableLimits;
  readonly #sessions = new Map<string, McpSession>();
  /** Sessions (open or being opened) per owner. */
  readonly #perOwner = new Map<string, number>();
  #opening = 0;

  constructor(limits: McpSessionTableLimits) {
    this.#limits = limits;
  }

  /** The number of open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Holds a place for a new session of `owner`, or says which cap refuses it. */
  reserve(owner: string): SessionReservation | SessionRefusal {
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) return 'server_full';
    const owned = this.#perOwner.get(owner) ?? 0;
    if (owned >= this.#limits.maxSessionsPerPrincipal) return 'principal_full';
    this.#opening += 1;
    this.#perOwner.set(owner, owned + 1);
    let held = true;
    return {
      commit: (id, session) => {
        if (!held) return;
        held = false;
        this.#opening -= 1;
        this.#sessions.set(id, session);
      },
      release: () => {
        if (!held) return;
        held = false;
        this.#opening -= 1;
        this.#release(owner);
      },
    };
  }

  /** The open session `id`; a session found idle is closed and reported missing. */
  get(id: string, now: number): McpSession | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    if (this.#isIdle(session, now)) {
      this.#expire(id, session);
      return undefined;
    }
    return session;
  }

  /** Marks a request or stream of `session` as open. */
  begin(session: McpSession): void {
    session.active += 1;
  }

  /** Marks a request or stream of `session` as finished at `now`. */
  end(session: McpSession, now: number): void {
    session.active = Math.max(0, session.active - 1);
    session.lastActive = now;
  }

  /** Forgets session `id` (closed by the client or the transport); true when it was open. */
  delete(id: string, session: McpSession): boolean {
    if (this.#sessions.get(id) !== session) return false;
    this.#sessions.delete(id);
    this.#release(session.owner);
    return true;
  }

  /** Closes every idle session. */
  sweep(now: number): void {
    for (const [id, session] of this.#sessions) {
      if (this.#isIdle(session, now)) this.#expire(id, session);
    }
  }

  /** The open sessions, at this moment. */
  open(): McpSession[] {
    return [...this.#sessions.values()];
  }

  /** Forgets every session and returns them (for closing). */
  clear(): McpSession[] {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    this.#perOwner.clear();
    return sessions;
  }

  #isIdle(session: McpSession, now: number): boolean {
    return session.active === 0 && now - session.lastActive >= this.#limits.idleMs;
  }

  #expire(id: string, session: McpSession): void {
    this.delete(id, session);
    this.#limits.onExpire(session);
  }

  #release(owner: string): void {
    const owned = (this.#perOwner.get(owner) ?? 1) - 1;
    if (owned <= 0) this.#perOwner.delete(owner);
    else this.#perOwner.set(owner, owned);
  }
}
