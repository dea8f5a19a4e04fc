import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MilpaError } from '@milpa/core';
import type { ConsoleAuthenticate, ConsoleAuthorize, ConsoleLogin } from '../console/approval-console-options.js';
import { readCookies } from '../security/cookies.js';
import { authorizeByTable, type ApproverTable } from './authorize-by-table.js';
import type { ConsoleSessionStore } from './console-session-store.js';
import { ConsoleSessions } from './console-sessions.js';

/** Options of {@link tokenAuthentication}. */
export interface TokenAuthenticationOptions {
  /** Each approver's secret token (16 to 512 characters of `A-Z a-z 0-9 . _ ~ -`) → their principal. */
  readonly tokens: Readonly<Record<string, string>>;
  /**
   * Who may see and decide which approval (principal → tools and policies); with it the answer
   * carries an `authorize` too. A principal without an entry sees nothing. See {@link authorizeByTable}.
   */
  readonly approvers?: ApproverTable;
  /** The cookie the sign-in page keeps the session id in; default `milpa_console_session`. */
  readonly cookieName?: string;
  /** Where sessions live; default in this process's memory (10,000 at most). Share one between processes. */
  readonly sessionStore?: ConsoleSessionStore;
  /** A session unused this long ends; default 30 minutes (every request starts the wait again). */
  readonly idleTimeoutMs?: number;
  /** A session ends this long after sign-in however much it is used; default 12 hours. */
  readonly absoluteTimeoutMs?: number;
  /** The clock the lifetimes are measured with (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
}

/** What {@link tokenAuthentication} returns: spread it into `createApprovalConsole` options. */
export interface TokenAuthentication {
  /** Reads the token from `Authorization: Bearer …` (each request on its own), or the session from the sign-in cookie. */
  readonly authenticate: ConsoleAuthenticate;
  /** The sign-in page's half: begins a session for a token that signs someone in, and revokes it on sign-out. */
  readonly login: ConsoleLogin;
  /** The `approvers` table as an `authorize`; absent without a table. */
  readonly authorize?: ConsoleAuthorize;
  /**
   * Removes `token` from the table: it no longer signs anyone in, as a bearer token or on the
   * sign-in page, and every session begun with it ends at its next use. Answers whether it was there.
   */
  removeToken(token: string): boolean;
}

const TOKEN = /^[A-Za-z0-9._~-]{16,512}$/;

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * A table of approver tokens, for demos, tests and small teams: approvers sign in on the console's
 * sign-in page, which begins a server-side session (the cookie holds an opaque random id, never the
 * token; it ends after 30 idle minutes, 12 hours, at sign-out or when its token is removed), or
 * send `Authorization: Bearer <token>` with every request. Tokens are compared by digest in
 * constant time. With `approvers`, it also says who may decide which tool's calls.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a token that is too short or has characters a cookie cannot carry,
 *   a blank principal, a bad cookie name or lifetime, or a malformed `approvers` entry.
 * @example
 * const console = createApprovalConsole({
 *   verifier,
 *   ...tokenAuthentication({ tokens: { [anaToken]: 'user:ana' }, approvers: { 'user:ana': { tools: ['print_note'] } } }),
 * });
 */
export function tokenAuthentication(options: TokenAuthenticationOptions): TokenAuthentication {
  const cookieName = options.cookieName ?? 'milpa_console_session';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cookieName)) {
    throw new MilpaError(`tokenAuthentication cookieName must be letters, digits, '_' or '-', got ${cookieName}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  const entries = Object.entries(options.tokens ?? {}).map(([token, principal]) => {
    if (!TOKEN.test(token)) {
      throw new MilpaError('tokenAuthentication tokens must be 16 to 512 characters of A-Z, a-z, 0-9, ., _, ~ or -.', {
        code: 'INVALID_ARGUMENT',
      });
    }
    if (typeof principal !== 'string' || principal.trim() === '') {
      throw new MilpaError('tokenAuthentication needs a non-empty principal for every token.', { code: 'INVALID_ARGUMENT' });
    }
    return { digest: digest(token), principal: principal.trim() };
  });
  const authorize = options.approvers === undefined ? undefined : authorizeByTable(options.approvers);
  const sessions = new ConsoleSessions({
    store: options.sessionStore,
    idleTimeoutMs: options.idleTimeoutMs,
    absoluteTimeoutMs: options.absoluteTimeoutMs,
    now: options.now,
  });

  function entryOf(token: string | undefined): { digest: Buffer; principal: string } | null {
    if (token === undefined || !TOKEN.test(token)) return null;
    const given = digest(token);
    let found: { digest: Buffer; principal: string } | null = null;
    for (const entry of entries) if (timingSafeEqual(entry.digest, given)) found = entry;
    return found;
  }

  /** The principal of the token whose digest is `credential` (hex), while it is in the table. */
  function principalOfCredential(credential: string): string | null {
    const given = Buffer.from(credential, 'hex');
    if (given.length !== 32) return null;
    let found: string | null = null;
    for (const entry of entries) if (timingSafeEqual(entry.digest, given)) found = entry.principal;
    return found;
  }

  async function authenticate(request: IncomingMessage): Promise<{ principal: string } | null> {
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.startsWith('Bearer ')) {
      const entry = entryOf(header.slice('Bearer '.length).trim());
      return entry === null ? null : { principal: entry.principal };
    }
    const sessionId = readCookies(request).get(cookieName);
    const session = await sessions.resolve(sessionId);
    if (session === null) return null;
    if (principalOfCredential(session.credential) !== session.principal) {
      // Its token was removed (or now names someone else): the session ends here.
      await sessions.end(sessionId);
      return null;
    }
    return { principal: session.principal };
  }

  const login: ConsoleLogin = {
    cookieName,
    maxAgeSeconds: sessions.maxAgeSeconds,
    signIn: async (token) => {
      const entry = entryOf(token);
      return entry === null ? null : sessions.start(entry.principal, entry.digest.toString('hex'));
    },
    signOut: (sessionId) => sessions.end(sessionId),
  };

  return {
    authenticate,
    login,
    ...(authorize === undefined ? {} : { authorize }),
    removeToken(token) {
      const entry = entryOf(token);
      if (entry === null) return false;
      entries.splice(entries.indexOf(entry), 1);
      return true;
    },
  };
}
