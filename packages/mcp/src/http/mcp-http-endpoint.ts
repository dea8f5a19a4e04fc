import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MilpaError, generateRandomId, type GovernedToolRegistry } from '@milpa/core';
import { createMcpServer } from '../server/create-mcp-server.js';
import { BoundedEventStore, ReplayBudget } from './bounded-event-store.js';
import { clientAddressKey } from './client-address-key.js';
import { clientAddressOf, trustedHops } from './client-address.js';
import { HostOriginGuard } from './host-origin-guard.js';
import type { HttpServeOptions, ResumableStreamsOptions } from './http-serve-options.js';
import { InitializeRateLimiter } from './initialize-rate-limiter.js';
import { isLoopbackHost } from './is-loopback-host.js';
import { McpAuthenticationError } from './mcp-authentication-error.js';
import type { McpIdentity } from './mcp-authenticator.js';
import { McpSessionTable, type McpSession } from './mcp-session-table.js';
import { ProtectedResourceMetadata } from './protected-resource-metadata.js';
import { readJsonBody } from './read-json-body.js';
import { initializeRequestOf, isHttpUrl, pathnameOf, refuse, sendError, setRawHeader } from './endpoint-http-helpers.js';
import { DEFAULT_MAX_JSON_DEPTH, invalidJsonRpcReason } from '../json/json-depth.js';

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_IDLE_MS = 30 * 60 * 1000;
const DEFAULT_MAX_SESSIONS = 1000;
const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 100;
const DEFAULT_MAX_INITIALIZE_PER_MINUTE = 60;
const DEFAULT_BODY_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY_INTERVAL_MS = 1000;
/** The replay memory of all sessions together: 64 MiB, whatever the number of sessions. */
const DEFAULT_MAX_REPLAY_BYTES_TOTAL = 64 * 1024 * 1024;
/** The first protocol version whose streams can be resumed (priming events, `closeSSEStream`). */
const RESUMABLE_PROTOCOL_VERSION = '2025-11-25';
const ANONYMOUS: McpIdentity = Object.freeze({ principal: null, scopes: Object.freeze([]) });

function positive(name: string, value: number, integer = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new MilpaError(`serveHttp option ${name} must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

/** An HTTP session: the table's record plus the protocol version negotiated at `initialize`. */
interface HttpSession extends McpSession {
  readonly protocolVersion: string;
}

/**
 * The Streamable HTTP endpoint behind `serveHttp`. Each request is checked in this order, and
 * refused at the first check it fails, before anything else is done for it: path, Host and
 * Origin, method, credentials (`401` with a `WWW-Authenticate` challenge pointing at the
 * protected-resource metadata), body size and read time, then for `initialize` the per-address
 * rate and the session caps, for any other request its session and that session's owner. One SDK
 * transport and one MCP server serve each session; the request's identity travels to the tool
 * call as the SDK's `AuthInfo`, so each call runs with the credentials of the request that carried
 * it. Running requests and open streams keep their session alive.
 */
export class McpHttpEndpoint {
  readonly #registry: GovernedToolRegistry;
  readonly #options: HttpServeOptions;
  readonly #path: string;
  readonly #guard: HostOriginGuard;
  readonly #maxBodyBytes: number;
  readonly #maxJsonDepth: number;
  readonly #bodyTimeoutMs: number;
  readonly #idleMs: number;
  readonly #sessions: McpSessionTable;
  readonly #initializeRate: InitializeRateLimiter;
  readonly #initializeRatePerPrincipal: InitializeRateLimiter;
  readonly #trustedHops: number;
  readonly #metadata: ProtectedResourceMetadata | null;
  readonly #resumable: (Required<ResumableStreamsOptions> & { readonly budget: ReplayBudget }) | null;
  readonly #sweep: ReturnType<typeof setInterval>;
  #closed = false;

  /**
   * @param boundAuthority `host:port` the server listens on (for the metadata when a request has no Host).
   * @throws MilpaError `INVALID_ARGUMENT` for an invalid limit, an invalid resource URL, or neither an
   * authenticator nor `allowAnonymous: true`.
   */
  constructor(registry: GovernedToolRegistry, options: HttpServeOptions, boundAuthority: () => string = () => 'localhost') {
    if (options.authenticate === undefined && options.allowAnonymous !== true) {
      throw new MilpaError(
        'serveHttp needs an authenticator (authenticate) or an explicit allowAnonymous: true to serve callers without credentials.',
        { code: 'INVALID_ARGUMENT' },
      );
    }
    this.#registry = registry;
    this.#options = options;
    this.#path = options.path ?? '/mcp';
    const host = options.host ?? '127.0.0.1';
    const hostChecked = isLoopbackHost(host) || options.allowedHosts !== undefined;
    this.#guard = new HostOriginGuard(options.allowedHosts, options.allowedOrigins, { checkHost: hostChecked });
    this.#maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    this.#maxJsonDepth = positive('maxJsonDepth', options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH, true);
    this.#bodyTimeoutMs = positive('bodyTimeoutMs', options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
    this.#idleMs = positive('sessionIdleTimeoutMs', options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_MS);
    this.#sessions = new McpSessionTable({
      maxSessions: positive('maxSessions', options.maxSessions ?? DEFAULT_MAX_SESSIONS, true),
      maxSessionsPerPrincipal: positive(
        'maxSessionsPerPrincipal',
        options.maxSessionsPerPrincipal ?? DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
        true,
      ),
      idleMs: this.#idleMs,
      onExpire: (session) => void session.server.close().catch(() => undefined),
    });
    this.#initializeRate = new InitializeRateLimiter(options.maxInitializePerMinute ?? DEFAULT_MAX_INITIALIZE_PER_MINUTE);
    this.#initializeRatePerPrincipal = new InitializeRateLimiter(
      options.maxInitializePerMinutePerPrincipal ?? options.maxInitializePerMinute ?? DEFAULT_MAX_INITIALIZE_PER_MINUTE,
      10_000,
      'maxInitializePerMinutePerPrincipal',
    );
    this.#trustedHops = trustedHops(options.trustProxy);
    const resource = options.protectedResource?.resource;
    if (resource !== undefined && !isHttpUrl(resource)) {
      throw new MilpaError(`serveHttp option protectedResource.resource must be an http(s) URL, got ${resource}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#metadata =
      options.authenticate === undefined
        ? null
        : new ProtectedResourceMetadata(options.protectedResource ?? {}, this.#path, boundAuthority, (hostHeader) =>
            hostChecked ? this.#guard.check({ host: hostHeader }) === null : false,
          );
    const resumable = options.resumableStreams;
    this.#resumable =
      resumable === false
        ? null
        : {
            maxEventsPerSession: positive('resumableStreams.maxEventsPerSession', resumable?.maxEventsPerSession ?? 1000, true),
            maxBytesPerSession: positive('resumableStreams.maxBytesPerSession', resumable?.maxBytesPerSession ?? 1024 * 1024, true),
            retryIntervalMs: positive('resumableStreams.retryIntervalMs', resumable?.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS, true),
            maxBytesTotal: positive('resumableStreams.maxBytesTotal', resumable?.maxBytesTotal ?? DEFAULT_MAX_REPLAY_BYTES_TOTAL, true),
            budget: new ReplayBudget(resumable?.maxBytesTotal ?? DEFAULT_MAX_REPLAY_BYTES_TOTAL),
          };
    // Requests sweep as they come; the timer closes idle sessions while no request comes at all.
    this.#sweep = setInterval(() => this.#sessions.sweep(Date.now()), Math.min(this.#idleMs, 60_000));
    this.#sweep.unref();
  }

  /** The number of open sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Bytes of resumable-stream events kept by all sessions together. */
  get replayBytes(): number {
    return this.#resumable?.budget.byteSize ?? 0;
  }

  /**
   * Sends `notifications/tools/list_changed` to the client of every open session (on its standing
   * stream when it has one open). Never rejects: a session that cannot be reached is skipped.
   */
  async sendToolListChanged(): Promise<void> {
    if (this.#closed) return;
    await Promise.allSettled(this.#sessions.open().map((session) => session.server.sendToolListChanged()));
  }

  /** Handles one HTTP request; never rejects. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.#route(request, response);
    } catch {
      sendError(response, refuse(500, -32603, 'Internal server error'));
    }
  }

  /** Closes every session (aborting running handlers) and stops the idle sweep. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweep);
    await Promise.allSettled(this.#sessions.clear().map((session) => session.server.close()));
  }

  async #route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const pathname = pathnameOf(request.url ?? '/');
    if (this.#metadata?.isMetadataPath(pathname) === true) return this.#serveMetadata(request, response, this.#metadata);
    if (pathname !== this.#path) return sendError(response, refuse(404, -32000, `Not found: ${pathname}`));
    const refusal = this.#guard.check(request.headers);
    if (refusal !== null) return sendError(response, refuse(403, -32000, `Forbidden: ${refusal}`));
    if (this.#closed) return sendError(response, refuse(503, -32000, 'Server is shutting down'));

    const method = request.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return sendError(response, refuse(405, -32000, `Method not allowed: ${method}`, { Allow: 'GET, POST, DELETE' }));
    }
    const identity = await this.#authenticate(request, response);
    if (identity === undefined) return;
    (request as IncomingMessage & { auth?: AuthInfo }).auth = this.#authInfo(identity, request);

    const sessionId = request.headers['mcp-session-id'];
    if (method !== 'POST') {
      const session = this.#resolveSession(sessionId, identity, response);
      if (session !== null) await this.#forward(session, request, response);
      return;
    }
    const body = await readJsonBody(request, this.#maxBodyBytes, this.#bodyTimeoutMs, this.#maxJsonDepth);
    if (!body.ok) return sendError(response, refuse(body.status, body.code, body.message, { Connection: 'close' }));
    const invalid = invalidJsonRpcReason(body.value);
    if (invalid !== null) return sendError(response, refuse(400, -32600, invalid));
    const initialize = sessionId === undefined ? initializeRequestOf(body.value) : undefined;
    if (initialize !== undefined) return this.#openSession(request, response, identity, body.value, initialize.params.protocolVersion);
    const session = this.#resolveSession(sessionId, identity, response);
    if (session === null) return;
    // A session's protocol version is negotiated once, at initialize; a later request that names an
    // older one (or none) cannot take resumability away from its streams.
    if (session.protocolVersion >= RESUMABLE_PROTOCOL_VERSION) {
      const named = request.headers['mcp-protocol-version'];
      if (named === undefined || (typeof named === 'string' && named < session.protocolVersion)) {
        setRawHeader(request, 'mcp-protocol-version', session.protocolVersion);
      }
    }
    await this.#forward(session, request, response, body.value);
  }

  /** Hands the request to the session's transport; the session stays active until the response closes. */
  async #forward(session: HttpSession, request: IncomingMessage, response: ServerResponse, body?: unknown): Promise<void> {
    this.#sessions.begin(session);
    // 'close' comes once the response is over, whether it ended or its connection dropped.
    response.once('close', () => this.#sessions.end(session, Date.now()));
    await session.transport.handleRequest(request, response, body);
  }

  #serveMetadata(request: IncomingMessage, response: ServerResponse, metadata: ProtectedResourceMetadata): void {
    const method = request.method ?? 'GET';
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, OPTIONS',
      'Access-Control-Allow-Headers': 'MCP-Protocol-Version',
    };
    if (method === 'OPTIONS') {
      response.writeHead(204, cors);
      response.end();
      return;
    }
    if (method !== 'GET') {
      sendError(response, refuse(405, -32000, `Method not allowed: ${method}`, { Allow: 'GET, OPTIONS' }));
      return;
    }
    // A document built from the request's Host is that request's only: never cached across requests.
    const caching = metadata.isFixed ? { 'Cache-Control': 'max-age=3600' } : { 'Cache-Control': 'no-store', Vary: 'Host' };
    response.writeHead(200, { 'Content-Type': 'application/json', ...caching, ...cors });
    response.end(JSON.stringify(metadata.document(request)));
  }

  /** The caller's identity; undefined when the request was already answered (401/500). */
  async #authenticate(request: IncomingMessage, response: ServerResponse): Promise<McpIdentity | undefined> {
    const authenticate = this.#options.authenticate;
    if (authenticate === undefined) return ANONYMOUS;
    let identity: McpIdentity | null;
    try {
      identity = await authenticate(request);
    } catch (error) {
      if (error instanceof McpAuthenticationError || (MilpaError.isInstance(error) && error.code === 'UNAUTHORIZED')) {
        this.#unauthorized(request, response, error.message);
      } else {
        // An authenticator that fails for another reason (a verifier outage) never lets a request through.
        sendError(response, refuse(500, -32603, 'Authentication failed'));
      }
      return undefined;
    }
    if (identity !== null) return identity;
    if (this.#options.allowAnonymous === true) return ANONYMOUS;
    this.#unauthorized(request, response);
    return undefined;
  }

  #unauthorized(request: IncomingMessage, response: ServerResponse, refused?: string): void {
    const message = refused === undefined ? 'Unauthorized: credentials are required' : `Unauthorized: ${refused}`;
    const challenge = this.#metadata?.challenge(request, refused) ?? 'Bearer';
    sendError(response, refuse(401, -32001, message, { 'WWW-Authenticate': challenge }));
  }

  #authInfo(identity: McpIdentity, request: IncomingMessage): AuthInfo {
    return {
      token: '',
      clientId: identity.principal ?? '',
      scopes: [...identity.scopes],
      extra: {
        principal: identity.principal,
        ip: clientAddressOf(request, this.#trustedHops) ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      },
    };
  }

  #resolveSession(sessionId: string | string[] | undefined, identity: McpIdentity, response: ServerResponse): HttpSession | null {
    if (typeof sessionId !== 'string') {
      sendError(response, refuse(400, -32000, 'Bad Request: no valid session id (send initialize first)'));
      return null;
    }
    const session = this.#sessions.get(sessionId, Date.now()) as HttpSession | undefined;
    if (session === undefined) {
      sendError(response, refuse(404, -32001, 'Session not found'));
      return null;
    }
    if (session.principal !== identity.principal) {
      sendError(response, refuse(403, -32000, 'Forbidden: this session belongs to another principal'));
      return null;
    }
    return session;
  }

  async #openSession(
    request: IncomingMessage,
    response: ServerResponse,
    identity: McpIdentity,
    body: unknown,
    requested: string,
  ): Promise<void> {
    const address = clientAddressKey(clientAddressOf(request, this.#trustedHops));
    const now = Date.now();
    const rate = this.#initializeRate.take(address, now);
    if (!rate.ok) {
      return sendError(
        response,
        refuse(429, -32000, `Too many initialize requests from this address: retry in ${rate.retryAfterSeconds} s`, {
          'Retry-After': String(rate.retryAfterSeconds),
        }),
      );
    }
    const principalRate = identity.principal === null ? null : this.#initializeRatePerPrincipal.take(identity.principal, now);
    if (principalRate !== null && !principalRate.ok) {
      return sendError(
        response,
        refuse(429, -32000, `Too many initialize requests for this principal: retry in ${principalRate.retryAfterSeconds} s`, {
          'Retry-After': String(principalRate.retryAfterSeconds),
        }),
      );
    }
    const owner = identity.principal === null ? `anonymous@${address}` : `principal:${identity.principal}`;
    const reservation = this.#sessions.reserve(owner);
    if (reservation === 'server_full') {
      return sendError(response, refuse(503, -32000, 'Too many open sessions on this server: retry later', { 'Retry-After': '60' }));
    }
    if (reservation === 'principal_full') {
      return sendError(
        response,
        refuse(429, -32000, 'Too many open sessions for this principal: close one (DELETE) or let one expire', { 'Retry-After': '60' }),
      );
    }
    try {
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
      const server = createMcpServer(this.#registry, this.#options);
      const resumable = this.#resumable;
      let session: HttpSession | null = null;
      let eventStore: BoundedEventStore | null = null;
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => generateRandomId('uuid'),
        onsessioninitialized: (id) => {
          session = { transport, server, principal: identity.principal, owner, protocolVersion, active: 0, lastActive: Date.now() };
          reservation.commit(id, session);
        },
        ...(resumable === null
          ? {}
          : {
              eventStore: (eventStore = new BoundedEventStore({
                maxEvents: resumable.maxEventsPerSession,
                maxBytes: resumable.maxBytesPerSession,
                budget: resumable.budget,
              })),
              retryInterval: resumable.retryIntervalMs,
            }),
      });
      transport.onclose = () => {
        eventStore?.dispose();
        const id = transport.sessionId;
        if (id !== undefined && session !== null) this.#sessions.delete(id, session);
      };
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
      // A refused initialize (e.g. an unsupported protocol version) opens no session: release it.
      if (session === null) await server.close();
    } finally {
      reservation.release();
    }
  }
}
