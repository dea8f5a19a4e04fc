import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ToolRegistry } from '@milpa/tool-runtime';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ExpiringMap, MilpaError, generateRandomId } from '@milpa/core';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { HttpServeOptions } from './http-serve-options.js';
import { HostOriginGuard } from './host-origin-guard.js';
import { isLoopbackHost } from './is-loopback-host.js';
import { McpAuthenticationError } from './mcp-authentication-error.js';
import type { McpIdentity } from './mcp-authenticator.js';
import { readJsonBody } from './read-json-body.js';

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** The principal that opened the session; every later request must come from the same one. */
  readonly principal: string | null;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_IDLE_MS = 30 * 60 * 1000;
const ANONYMOUS: McpIdentity = Object.freeze({ principal: null, scopes: Object.freeze([]) });

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

function sendError(response: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The Streamable HTTP endpoint behind `serveHttp`: checks Host/Origin, authenticates every request,
 * and routes it to its session (one SDK transport and one MCP server per session, created by an
 * `initialize` request). The request's identity travels to the tool call as the SDK's `AuthInfo`,
 * so each call runs with the credentials of the request that carried it; a session only accepts
 * requests from the principal that opened it.
 */
export class McpHttpEndpoint {
  readonly #registry: ToolRegistry;
  readonly #options: HttpServeOptions;
  readonly #path: string;
  readonly #guard: HostOriginGuard | null;
  readonly #maxBodyBytes: number;
  readonly #idleMs: number;
  /** Open sessions, each expiring `sessionIdleTimeoutMs` after its last request; an expired one is closed. */
  readonly #sessions = new ExpiringMap<string, Session>({
    onExpire: (_id, session) => void session.server.close().catch(() => undefined),
  });
  readonly #sweep: ReturnType<typeof setInterval>;
  #closed = false;

  /** @throws MilpaError `INVALID_ARGUMENT` for a non-positive `maxBodyBytes` or `sessionIdleTimeoutMs`. */
  constructor(registry: ToolRegistry, options: HttpServeOptions) {
    this.#registry = registry;
    this.#options = options;
    this.#path = options.path ?? '/mcp';
    const host = options.host ?? '127.0.0.1';
    const protect =
      options.dnsRebindingProtection ??
      (isLoopbackHost(host) || options.allowedHosts !== undefined || options.allowedOrigins !== undefined);
    this.#guard = protect ? new HostOriginGuard(options.allowedHosts, options.allowedOrigins) : null;
    this.#maxBodyBytes = McpHttpEndpoint.#positive('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    this.#idleMs = McpHttpEndpoint.#positive('sessionIdleTimeoutMs', options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_MS);
    // Requests sweep as they come; the timer closes idle sessions while no request comes at all.
    this.#sweep = setInterval(() => this.#sessions.sweep(), Math.min(this.#idleMs, 60_000));
    this.#sweep.unref();
  }

  static #positive(name: string, value: number): number {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new MilpaError(`serveHttp option ${name} must be a positive number, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
    }
    return value;
  }

  /** The number of open sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Handles one HTTP request; never rejects. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.#route(request, response);
    } catch {
      sendError(response, 500, -32603, 'Internal server error');
    }
  }

  /** Closes every session (aborting running handlers) and stops the idle sweep. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweep);
    const sessions = [...this.#sessions.entries()].map(([, session]) => session);
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }

  async #route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname !== this.#path) return sendError(response, 404, -32000, `Not found: ${pathname}`);
    const refusal = this.#guard?.check(request.headers) ?? null;
    if (refusal !== null) return sendError(response, 403, -32000, `Forbidden: ${refusal}`);
    if (this.#closed) return sendError(response, 503, -32000, 'Server is shutting down');

    const method = request.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return sendError(response, 405, -32000, `Method not allowed: ${method}`, { Allow: 'GET, POST, DELETE' });
    }
    const identity = await this.#authenticate(request, response);
    if (identity === undefined) return;
    (request as IncomingMessage & { auth?: AuthInfo }).auth = this.#authInfo(identity, request);

    const sessionId = request.headers['mcp-session-id'];
    if (method === 'POST') {
      const body = await readJsonBody(request, this.#maxBodyBytes);
      if (!body.ok) {
        return sendError(response, body.status, body.status === 413 ? -32000 : -32700, body.message, { Connection: 'close' });
      }
      if (sessionId === undefined && isInitialize(body.value)) return this.#openSession(request, response, identity, body.value);
      const session = this.#resolveSession(sessionId, identity, response);
      if (session !== null) await session.transport.handleRequest(request, response, body.value);
      return;
    }
    const session = this.#resolveSession(sessionId, identity, response);
    if (session !== null) await session.transport.handleRequest(request, response);
  }

  /** The caller's identity; undefined when the request was already answered (401/500). */
  async #authenticate(request: IncomingMessage, response: ServerResponse): Promise<McpIdentity | undefined> {
    const authenticate = this.#options.authenticate;
    if (authenticate === undefined) return ANONYMOUS;
    try {
      return (await authenticate(request)) ?? ANONYMOUS;
    } catch (error) {
      if (error instanceof McpAuthenticationError || (MilpaError.isInstance(error) && error.code === 'UNAUTHORIZED')) {
        const description = error.message.replace(/["\\]/g, "'");
        sendError(response, 401, -32001, `Unauthorized: ${error.message}`, {
          'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"`,
        });
      } else {
        // An authenticator that fails for another reason (a verifier outage) never lets a request through.
        sendError(response, 500, -32603, 'Authentication failed');
      }
      return undefined;
    }
  }

  #authInfo(identity: McpIdentity, request: IncomingMessage): AuthInfo {
    return {
      token: '',
      clientId: identity.principal ?? '',
      scopes: [...identity.scopes],
      extra: {
        principal: identity.principal,
        ip: request.socket.remoteAddress ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      },
    };
  }

  #resolveSession(sessionId: string | string[] | undefined, identity: McpIdentity, response: ServerResponse): Session | null {
    if (typeof sessionId !== 'string') {
      sendError(response, 400, -32000, 'Bad Request: no valid session id (send initialize first)');
      return null;
    }
    const session = this.#sessions.get(sessionId);
    if (session === undefined) {
      sendError(response, 404, -32001, 'Session not found');
      return null;
    }
    if (session.principal !== identity.principal) {
      sendError(response, 403, -32000, 'Forbidden: this session belongs to another principal');
      return null;
    }
    this.#sessions.set(sessionId, session, Date.now() + this.#idleMs);
    return session;
  }

  async #openSession(request: IncomingMessage, response: ServerResponse, identity: McpIdentity, body: unknown): Promise<void> {
    const server = createMcpServer(this.#registry, this.#options);
    let session: Session | null = null;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => generateRandomId('uuid'),
      onsessioninitialized: (id) => {
        session = { transport, server, principal: identity.principal };
        this.#sessions.set(id, session, Date.now() + this.#idleMs);
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.#sessions.get(id)?.transport === transport) this.#sessions.delete(id);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
    // A refused initialize (e.g. an unsupported protocol version) opens no session: release it.
    if (session === null) await server.close();
  }
}
