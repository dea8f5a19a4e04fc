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
 * DNS-rebinding protection: a page on `evil.example` whose DNS now points at 127.0.0.1 reaches a
 * local server with `Host: evil.example` and `Origin: http://evil.example`. The guard accepts a
 * request only when its Host names an allowed hostname (any port) and its Origin, when sent, is an
 * allowed origin or on an allowed hostname. A missing Host and an opaque `Origin: null` are refused.
 */
export class HostOriginGuard {
  readonly #hostnames: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;

  /**
   * @param allowedHosts extra hostnames (no port; IPv6 in brackets) accepted besides the loopback names.
   * @param allowedOrigins extra origins (`https://app.example.com`) accepted in the Origin header.
   */
  constructor(
    // Stryker disable next-line ArrayDeclaration: equivalent: the mutant's default hostname, 'Stryker was here', has spaces, which no hostname parsed from a Host or Origin header has, so no request can match it.
    allowedHosts: readonly string[] = [],
    allowedOrigins: readonly string[] = [],
  ) {
    this.#hostnames = new Set([...LOOPBACK_HOSTNAMES, ...allowedHosts.map((host) => host.toLowerCase())]);
    this.#origins = new Set(allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, '')));
  }

  /** Why the request must be refused, or null when its Host and Origin are acceptable. */
  check(headers: IncomingHttpHeaders): string | null {
    const host = headers.host;
    const hostname = host === undefined ? null : hostnameOf(host);
    if (hostname === null || !this.#hostnames.has(hostname)) return `Invalid Host header: ${host ?? '(none)'}`;
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
