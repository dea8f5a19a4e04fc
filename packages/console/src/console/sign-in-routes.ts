import type { IncomingMessage, ServerResponse } from 'node:http';
import { MilpaError } from '@milpa/core';
import { readCookies, serializeCookie } from '../security/cookies.js';
import type { CsrfGuard } from '../security/csrf-guard.js';
import { renderLoginPage } from '../views/render-login-page.js';
import type { ConsoleLogin } from './approval-console-options.js';
import type { ConsoleResponder } from './console-responder.js';
import { readFormBody } from './read-form-body.js';

/** What {@link SignInRoutes} works with. */
export interface SignInRoutesSettings {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** The host's sign-in half: begins and revokes sessions. */
  readonly login: ConsoleLogin;
  /** Checks the sign-in form's CSRF token. */
  readonly csrf: CsrfGuard;
  /** Writes the answers. */
  readonly responder: ConsoleResponder;
  /** Whether cookies set for `request` are `Secure`. */
  readonly secureFor: (request: IncomingMessage) => boolean;
}

/** What a session id (and so the cookie's value) may be made of. */
const SESSION_ID_SHAPE = /^[A-Za-z0-9._~-]{1,512}$/;
const CSRF_REFUSED = 'Refused: the form has no valid CSRF token. Reload the page and try again.';

/**
 * The sign-in page and sign-out: a token that signs someone in begins a new server-side session
 * whose id (never the token) goes in the cookie; sign-out revokes the session and clears the cookie.
 * A session id the browser brought to the sign-in page is revoked and never adopted.
 */
export class SignInRoutes {
  readonly #settings: SignInRoutesSettings;

  /**
   * Routes over `settings`.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `login` lacks `signIn` and `signOut` (or a usable `cookieName`).
   */
  constructor(settings: SignInRoutesSettings) {
    const login = settings.login;
    if (typeof login.signIn !== 'function' || typeof login.signOut !== 'function' || !/^[A-Za-z0-9_-]{1,64}$/.test(login.cookieName)) {
      throw new MilpaError(
        'createApprovalConsole login needs a cookieName and signIn(token) and signOut(sessionId) functions that begin and ' +
          'revoke server-side sessions; tokenAuthentication builds them.',
        { code: 'INVALID_ARGUMENT' },
      );
    }
    this.#settings = settings;
  }

  /** Answers `GET login` with the form, or signs in on `POST login` (the CSRF nonce cookie was `existingNonce`). */
  async signIn(
    request: IncomingMessage,
    response: ServerResponse,
    existingNonce: string | undefined,
    nonce: string,
    setCookies: readonly string[],
  ): Promise<void> {
    const { base, login, csrf, responder, secureFor } = this.#settings;
    const answerForm = (status: number, error: string | null, cookies: readonly string[]): void =>
      responder.sendPage(
        response,
        {
          status,
          title: 'Sign in',
          current: 'login',
          body: renderLoginPage(base, csrf.tokenFor(nonce, ''), error),
          live: false,
          url: null,
        },
        null,
        nonce,
        cookies,
      );
    if (request.method !== 'POST') return answerForm(200, null, setCookies);
    const body = await readFormBody(request);
    if (!body.ok && body.status === 413) return answerForm(413, `${body.message} Nothing was sent: sign in with your token.`, []);
    if (!body.ok) return responder.send(response, body.status, 'text/plain; charset=utf-8', body.message);
    if (!csrf.verify(existingNonce, '', body.fields.get('_csrf')))
      return responder.send(response, 403, 'text/plain; charset=utf-8', CSRF_REFUSED);
    // Whatever session this browser brought (signed in before, or planted) ends: sign-in never adopts it.
    const previous = readCookies(request).get(login.cookieName);
    if (previous !== undefined && SESSION_ID_SHAPE.test(previous)) await login.signOut(previous);
    const token = body.fields.get('token') ?? '';
    const sessionId = SESSION_ID_SHAPE.test(token) ? await login.signIn(token) : null;
    if (sessionId === null || sessionId === undefined) return answerForm(401, 'That token does not sign anyone in.', []);
    if (typeof sessionId !== 'string' || !SESSION_ID_SHAPE.test(sessionId) || sessionId === token) {
      throw new MilpaError('The console login answered a session id a cookie cannot safely carry.', { code: 'INVALID_ARGUMENT' });
    }
    const cookie = serializeCookie(login.cookieName, sessionId, {
      path: base,
      secure: secureFor(request),
      ...(login.maxAgeSeconds === undefined ? {} : { maxAgeSeconds: login.maxAgeSeconds }),
    });
    return responder.redirect(response, base, [cookie]);
  }

  /** Signs out after a checked `POST logout`: revokes the cookie's session and clears the cookie. */
  async signOut(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { login } = this.#settings;
    const sessionId = readCookies(request).get(login.cookieName);
    if (sessionId !== undefined && SESSION_ID_SHAPE.test(sessionId)) await login.signOut(sessionId);
    return this.clearCookie(request, response);
  }

  /** Clears the session cookie and sends the browser to the sign-in page (nothing is revoked). */
  clearCookie(request: IncomingMessage, response: ServerResponse): void {
    const { base, login, responder, secureFor } = this.#settings;
    responder.redirect(response, `${base}login`, [
      serializeCookie(login.cookieName, '', { path: base, secure: secureFor(request), maxAgeSeconds: 0 }),
    ]);
  }
}
