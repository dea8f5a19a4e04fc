import type { TrustProxy } from './client-address.js';
import type { McpServerOptions } from '../server/mcp-server-options.js';
import type { McpAuthenticator } from './mcp-authenticator.js';
import type { ProtectedResourceOptions } from './protected-resource-options.js';

/** Resumable streams: the events of a session kept so that a client that reconnects misses nothing. */
export interface ResumableStreamsOptions {
  /** The most events kept per session (oldest dropped first); default 1,000. */
  readonly maxEventsPerSession?: number;
  /** The most bytes of events kept per session (oldest dropped first); default 1 MiB. */
  readonly maxBytesPerSession?: number;
  /** How long a client should wait before reconnecting to a closed stream (SSE `retry`); default 1,000 ms. */
  readonly retryIntervalMs?: number;
  /**
   * The most bytes of events kept by all sessions together; default 64 MiB. Past it the oldest
   * events of any session go first, so replay memory stays bounded whatever the number of sessions.
   */
  readonly maxBytesTotal?: number;
}

/**
 * Options of `serveHttp`: where to listen, who may connect, the limits that keep the server up
 * under load or attack, and the server options. Every limit has a default; every refusal is an
 * HTTP error with a JSON-RPC error body that says which limit refused.
 */
export interface HttpServeOptions extends McpServerOptions {
  /** The TCP port; default `0` (a free port, see the handle's `url`). */
  readonly port?: number;
  /** The interface to bind; default `'127.0.0.1'` (loopback only). */
  readonly host?: string;
  /** The endpoint path; default `'/mcp'`. */
  readonly path?: string;
  /**
   * Authenticates each request (e.g. `bearerAuthenticator(verifier)`). A request without
   * credentials is answered `401` with a `WWW-Authenticate: Bearer` challenge naming the
   * protected-resource metadata, unless `allowAnonymous` is true.
   */
  readonly authenticate?: McpAuthenticator;
  /**
   * Serves callers without credentials, as anonymous (no principal, no scopes: the `mcp` channel
   * policy denies their tool calls unless a `context` builder decides otherwise). Default false;
   * `serveHttp` refuses to start with neither an authenticator nor `allowAnonymous: true`.
   */
  readonly allowAnonymous?: boolean;
  /**
   * The OAuth protected-resource metadata published at `/.well-known/oauth-protected-resource`
   * (served whenever an authenticator is configured): the authorization servers that grant tokens,
   * the scopes, the public resource URL.
   */
  readonly protectedResource?: ProtectedResourceOptions;
  /**
   * Hostnames (no port; IPv6 in brackets) accepted in the `Host` header. When given, the Host header
   * is checked against them and the loopback names; without them it is checked only on a loopback
   * bind (against `localhost`, `127.0.0.1`, `[::1]`, which stops DNS rebinding).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins (e.g. `https://app.example.com`) accepted in the `Origin` header, on any bind address.
   * Origins on the loopback names and on `allowedHosts` are accepted too; a request without an
   * Origin (a non-browser client) is not affected.
   */
  readonly allowedOrigins?: readonly string[];
  /** The largest accepted request body in bytes; default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The deepest nesting of arrays and objects a request body may have; default 64. A deeper body is
   * refused with `-32600` before it is parsed, so a deeply nested body cannot stall the server.
   */
  readonly maxJsonDepth?: number;
  /** A session with no open request or stream for this long is closed; default 30 minutes. */
  readonly sessionIdleTimeoutMs?: number;
  /** The most open sessions; default 1,000. Beyond it `initialize` is answered `503`. */
  readonly maxSessions?: number;
  /** The most open sessions of one principal (anonymous callers: per client address); default 100. Beyond it `429`. */
  readonly maxSessionsPerPrincipal?: number;
  /** The most `initialize` requests per client address (IPv6: per /64) per minute; default 60. Beyond it `429`. */
  readonly maxInitializePerMinute?: number;
  /**
   * The most `initialize` requests of one authenticated principal per minute, from any address;
   * default `maxInitializePerMinute` (60). Beyond it `429`.
   */
  readonly maxInitializePerMinutePerPrincipal?: number;
  /**
   * Trust `X-Forwarded-For` from this many reverse proxies in front of the server (`true`: one), so
   * per-address limits and the address in each call's context key on the client the proxy saw
   * rather than on the proxy. Off by default: without a proxy, a client could otherwise pick its
   * own address. Set it only when every request passes through the proxy.
   */
  readonly trustProxy?: TrustProxy;
  /** The most open TCP connections; default 1,000. A connection beyond it is answered `503` and closed. */
  readonly maxConnections?: number;
  /**
   * Open connections allowed from one client address (an IPv6 client counts per /64); beyond it a
   * new connection gets `429` and is closed, so one address cannot hold the whole
   * `maxConnections`. Default 64, or `maxConnections` with `trustProxy` (every connection then comes
   * from the proxy).
   */
  readonly maxConnectionsPerAddress?: number;
  /** How long an idle kept-alive connection stays open between requests; default 5 seconds. */
  readonly keepAliveTimeoutMs?: number;
  /** Time allowed to receive a request's headers; default 10,000 ms (then `408`). */
  readonly headersTimeoutMs?: number;
  /** Time allowed to receive a request's body; default 10,000 ms (then `408`). */
  readonly bodyTimeoutMs?: number;
  /**
   * Resumable streams (default on): each session keeps its recent stream events in memory, bounded,
   * so a client that reconnects with `Last-Event-ID` receives the results it missed. `false` turns
   * them off.
   */
  readonly resumableStreams?: false | ResumableStreamsOptions;
}
