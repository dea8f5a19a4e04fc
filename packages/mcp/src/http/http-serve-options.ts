import type { McpServerOptions } from '../server/mcp-server-options.js';
import type { McpAuthenticator } from './mcp-authenticator.js';

/** Options of `serveHttp`: where to listen, how to authenticate, and the server options. */
export interface HttpServeOptions extends McpServerOptions {
  /** The TCP port; default `0` (a free port, see the handle's `url`). */
  readonly port?: number;
  /** The interface to bind; default `'127.0.0.1'` (loopback only). */
  readonly host?: string;
  /** The endpoint path; default `'/mcp'`. */
  readonly path?: string;
  /**
   * Authenticates each request (e.g. `bearerAuthenticator(verifier)`). Without it every caller is
   * anonymous, and the `mcp` channel policy denies every tool call.
   */
  readonly authenticate?: McpAuthenticator;
  /**
   * Host/Origin checks against DNS rebinding. Default on when `host` is a loopback address or when
   * `allowedHosts` / `allowedOrigins` are given.
   */
  readonly dnsRebindingProtection?: boolean;
  /** Hostnames (no port; IPv6 in brackets) accepted besides `localhost`, `127.0.0.1` and `[::1]`. */
  readonly allowedHosts?: readonly string[];
  /** Origins (e.g. `https://app.example.com`) accepted in the Origin header. */
  readonly allowedOrigins?: readonly string[];
  /** The largest accepted request body in bytes; default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** A session without requests for this long is closed; default 30 minutes. */
  readonly sessionIdleTimeoutMs?: number;
}
