import type { ServerResponse } from 'node:http';
import type { CsrfGuard } from '../security/csrf-guard.js';
import { SECURITY_HEADERS } from '../security/security-headers.js';
import { renderLayout } from '../views/render-layout.js';
import type { ConsoleIdentity } from './approval-console-options.js';
import type { ConsolePage } from './console-page.js';

/** What a {@link ConsoleResponder} needs to lay out pages. */
export interface ConsoleResponderSettings {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** The heading of every page. */
  readonly consoleTitle: string;
  /** Signs the CSRF token each page's forms carry. */
  readonly csrf: CsrfGuard;
  /** Whether pages offer a sign-out button (the console has a sign-in page). */
  readonly canSignOut: boolean;
}

/**
 * Writes the console's answers: every one with the security headers, pages wrapped in the layout
 * (with the approver's CSRF token), redirects as `303 See Other`.
 */
export class ConsoleResponder {
  readonly #settings: ConsoleResponderSettings;

  /** A responder laying pages out with `settings`. */
  constructor(settings: ConsoleResponderSettings) {
    this.#settings = settings;
  }

  /** Answers `body` as `contentType` with the security headers and `headers`. */
  send(
    response: ServerResponse,
    status: number,
    contentType: string,
    body: string,
    headers: Readonly<Record<string, string | string[]>> = {},
  ): void {
    response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': contentType, ...headers });
    response.end(body);
  }

  /** Answers `page` in the layout, for `identity` (null: signed out), setting `cookies`. */
  sendPage(response: ServerResponse, page: ConsolePage, identity: ConsoleIdentity | null, nonce: string, cookies: readonly string[]): void {
    const { base, consoleTitle, csrf, canSignOut } = this.#settings;
    const html = renderLayout({
      base,
      title: page.title,
      consoleTitle,
      principal: identity?.principal ?? null,
      csrfToken: identity === null ? null : csrf.tokenFor(nonce, identity.principal),
      current: page.current,
      body: page.body,
      live: page.live,
      pageUrl: page.url,
      canSignOut,
    });
    this.send(response, page.status, 'text/html; charset=utf-8', html, cookies.length === 0 ? {} : { 'Set-Cookie': [...cookies] });
  }

  /** Sends the browser to `location` (`303`), setting `cookies`. */
  redirect(response: ServerResponse, location: string, cookies: readonly string[] = []): void {
    this.send(response, 303, 'text/plain; charset=utf-8', 'See other', {
      Location: location,
      ...(cookies.length === 0 ? {} : { 'Set-Cookie': [...cookies] }),
    });
  }
}
