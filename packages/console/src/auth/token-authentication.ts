import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MilpaError } from '@milpa/core';
import type { ConsoleAuthenticate, ConsoleLogin } from '../console/approval-console-options.js';
import { readCookies } from '../security/cookies.js';

/** Options of {@link tokenAuthentication}. */
export interface TokenAuthenticationOptions {
  /** Each approver's secret token (16 to 512 characters of `A-Z a-z 0-9 . _ ~ -`) → their principal. */
  readonly tokens: Readonly<Record<string, string>>;
  /** The cookie the sign-in page keeps the token in; default `milpa_console_session`. */
  readonly cookieName?: string;
}

/** What {@link tokenAuthentication} returns: spread it into `createApprovalConsole` options. */
export interface TokenAuthentication {
  /** Reads the token from `Authorization: Bearer …` or the sign-in cookie. */
  readonly authenticate: ConsoleAuthenticate;
  /** The sign-in page's half: which tokens sign someone in, and the cookie they go in. */
  readonly login: ConsoleLogin;
}

const TOKEN = /^[A-Za-z0-9._~-]{16,512}$/;

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * A fixed table of approver tokens, for demos, tests and small teams: approvers sign in on the
 * console's sign-in page (or send `Authorization: Bearer <token>`), and `authenticate` maps the
 * token to its principal. Tokens are compared by digest in constant time. For anything larger,
 * pass your own `authenticate` that reads your session.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a token that is too short or has characters a cookie cannot carry.
 * @example
 * const console = createApprovalConsole({ verifier, ...tokenAuthentication({ tokens: { [anaToken]: 'user:ana' } }) });
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

  function principalOf(token: string | undefined): string | null {
    if (token === undefined || !TOKEN.test(token)) return null;
    const given = digest(token);
    let found: string | null = null;
    for (const entry of entries) if (timingSafeEqual(entry.digest, given)) found = entry.principal;
    return found;
  }

  function tokenOf(request: IncomingMessage): string | undefined {
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
    return readCookies(request).get(cookieName);
  }

  return {
    authenticate: (request) => {
      const principal = principalOf(tokenOf(request));
      return principal === null ? null : { principal };
    },
    login: { cookieName, accepts: (token) => principalOf(token) !== null },
  };
}
