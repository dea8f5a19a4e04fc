import type { IncomingHttpHeaders } from 'node:http';

/** The hostnames a loopback server answers to; a browser on a rebound DNS name sends another. */
const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function hostnameOf(authority: string): string | null {
  try {
    return new URL(`http://${authority}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Host and Origin checks. DNS rebinding: a page on `evil.example` whose DNS now points at 127.0.0.1
 * reaches a local server with `Host: evil.example` and `Origin: http://evil.example`; cross-site
 * requests: any page a browser shows can POST to any reachable server, sending its own `Origin`.
 * The guard accepts a request only when its Origin, when sent, is an allowed origin or on an allowed
 * hostname (the loopback names and `allowedHosts`), and, when `checkHost` is on, its Host names an
 * allowed hostname (any port). A missing Host (when checked) and an opaque `Origin: null` are refused.
 * A request without an Origin header (a non-browser client) passes the Origin check.
 */
export class HostOriginGuard {
  readonly #hostnames: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;
  readonly #checkHost: boolean;

  /**
   * @param allowedHosts extra hostnames (no port; IPv6 in brackets) accepted besides the loopback names.
   * @param allowedOrigins extra origins (`https://app.example.com`) accepted in the Origin header.
   * @param options.checkHost whether the Host header is checked too; default true.
   */
  constructor(
    // Stryker disable next-line ArrayDeclaration: equivalent: the mutant's default hostname, 'Stryker was here',
    // has spaces, which no hostname parsed from a Host or Origin header has, so no request can match it.
    allowedHosts: readonly string[] = [],
    allowedOrigins: readonly string[] = [],
    options: { readonly checkHost?: boolean } = {},
  ) {
    this.#hostnames = new Set([...LOOPBACK_HOSTNAMES, ...allowedHosts.map((host) => host.toLowerCase())]);
    this.#origins = new Set(allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, '')));
    this.#checkHost = options.checkHost ?? true;
  }

  /** Why the request must be refused, or null when its Host and Origin are acceptable. */
  check(headers: IncomingHttpHeaders): string | null {
    if (this.#checkHost) {
      const host = headers.host;
      const hostname = host === undefined ? null : hostnameOf(host);
      if (hostname === null || !this.#hostnames.has(hostname)) return `Invalid Host header: ${host ?? '(none)'}`;
    }
    const origin = headers.origin;
    if (origin === undefined) return null;
    const normalized = origin.toLowerCase();
    if (this.#origins.has(normalized)) return null;
    let originHost: string | null = null;
    try {
      const url = new URL(normalized);
      if (url.protocol === 'http:' || url.protocol === 'https:') originHost = url.hostname;
    } catch {
      originHost = null;
    }
    if (originHost === null || !this.#hostnames.has(originHost)) return `Invalid Origin header: ${origin}`;
    return null;
  }
}
