import { ToolContext, defineTool } from '@milpa/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNotesRegistry } from '../../test/support/notes-registry.js';
import { INITIALIZE, rawPost, rawRequest } from '../../test/support/raw-http.js';
import { expectAnsweredAsUnknownTool } from '../../test/support/unknown-tool.js';
import { bearerAuthenticator } from './bearer-authenticator.js';
import type { HttpServeOptions } from './http-serve-options.js';
import { McpHttpEndpoint } from './mcp-http-endpoint.js';
import type { McpHttpHandle } from './mcp-http-handle.js';
import { serveHttp } from './serve-http.js';

const GRANTS = new Map([
  ['reader-token', { principal: 'user:reader', scopes: ['notes:read'] }],
  ['writer-token', { principal: 'user:writer', scopes: ['notes:read', 'notes:write'] }],
]);

const verifier: OAuthTokenVerifier = {
  verifyAccessToken: async (token) => {
    const grant = GRANTS.get(token);
    if (grant === undefined) throw new InvalidTokenError('Unknown token');
    return { token, clientId: grant.principal, scopes: grant.scopes };
  },
};

const handles: McpHttpHandle[] = [];
const clients: Client[] = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

async function serve(options: HttpServeOptions = {}) {
  const notes = createNotesRegistry();
  notes.registry.register(
    defineTool({
      name: 'whoami',
      description: 'Describes the caller',
      handler: (_args, { context }) => ({
        principal: context.principal,
        scopes: context.scopes,
        ip: context.ip,
        userAgent: context.userAgent,
      }),
    }),
  );
  const handle = await serveHttp(notes.registry, { authenticate: bearerAuthenticator(verifier), ...options });
  handles.push(handle);
  return { ...notes, handle };
}

async function connect(url: string, token: string | null, capabilities: ClientCapabilities = {}): Promise<Client> {
  const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
  const client = new Client({ name: 'http-test', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

describe('serveHttp', () => {
  describe('listening', () => {
    it('binds loopback on a free port and reports the endpoint URL', async () => {
      const { handle } = await serve();
      expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/mcp`);
      expect(handle.port).toBeGreaterThan(0);
    });

    it('serves a custom path and answers 404 elsewhere', async () => {
      const { handle } = await serve({ path: '/tools' });
      expect(handle.url.endsWith('/tools')).toBe(true);
      const client = await connect(handle.url, 'reader-token');
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      const elsewhere = await rawPost(handle.url.replace('/tools', '/mcp'), INITIALIZE);
      expect(elsewhere.status).toBe(404);
    });

    it('answers 405 to methods other than GET, POST and DELETE', async () => {
      const { handle } = await serve();
      const response = await rawRequest(handle.url, 'PUT', {});
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, POST, DELETE');
    });
  });

  describe('authentication', () => {
    it('runs calls with the principal and scopes of the bearer token: one tool allowed, another hidden', async () => {
      const { handle, recorder } = await serve();
      const client = await connect(handle.url, 'reader-token');
      const allowed = await client.callTool({ name: 'list_notes', arguments: {} });
      expect(allowed.structuredContent).toEqual({ title: 'Groceries', pinned: true });
      // A tool the token's scopes do not reach is answered as an unknown tool: its name and scope stay hidden.
      await expectAnsweredAsUnknownTool(client.callTool({ name: 'delete_note', arguments: { id: 1 } }), 'delete_note');
      expect(recorder.deleted).toEqual([]);
    });

    it('puts the principal, the exact scopes, the client IP and user agent in the context', async () => {
      const { handle } = await serve();
      const client = await connect(handle.url, 'writer-token');
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.structuredContent).toMatchObject({ principal: 'user:writer', scopes: ['notes:read', 'notes:write'] });
      expect((result.structuredContent as { ip: string }).ip).toMatch(/127\.0\.0\.1/);
      expect(typeof (result.structuredContent as { userAgent: unknown }).userAgent).toBe('string');
    });

    it(
      'answers 401 with a challenge naming the protected-resource metadata ' + 'to a request without credentials, and opens no session',
      async () => {
        const { handle } = await serve();
        const response = await rawPost(handle.url, INITIALIZE);
        expect(response.status).toBe(401);
        expect(response.headers['www-authenticate']).toBe(
          `Bearer resource_metadata="http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp"`,
        );
        expect(JSON.parse(response.body)).toEqual({
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Unauthorized: credentials are required' },
          id: null,
        });
        expect(handle.sessionCount).toBe(0);
        // Nor can an anonymous caller list tools or reach a session by any other request.
        const list = await rawPost(handle.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
        expect(list.status).toBe(401);
        await expect(connect(handle.url, null)).rejects.toThrow();
        expect(handle.sessionCount).toBe(0);
      },
    );

    it(
      'serves the protected-resource metadata at both well-known paths, ' + 'with the configured authorization servers and scopes',
      async () => {
        const { handle } = await serve({
          protectedResource: {
            authorizationServers: ['https://auth.example.com'],
            scopesSupported: ['notes:read', 'notes:write'],
            resourceName: 'Notes',
          },
        });
        const origin = `http://127.0.0.1:${handle.port}`;
        const expected = {
          resource: `${origin}/mcp`,
          authorization_servers: ['https://auth.example.com'],
          bearer_methods_supported: ['header'],
          scopes_supported: ['notes:read', 'notes:write'],
          resource_name: 'Notes',
        };
        for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
          const response = await rawRequest(`${origin}${path}`, 'GET', {});
          expect(response.status).toBe(200);
          expect(response.headers['content-type']).toBe('application/json');
          expect(JSON.parse(response.body)).toEqual(expected);
        }
        const challenge = (await rawPost(handle.url, INITIALIZE)).headers['www-authenticate'];
        expect(challenge).toBe(
          `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="notes:read notes:write"`,
        );
      },
    );

    it('publishes a configured resource URL, and refuses one that is not http(s)', async () => {
      const { handle } = await serve({ protectedResource: { resource: 'https://mcp.example.com/tools' } });
      const document = await rawRequest(`http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp`, 'GET', {});
      expect(JSON.parse(document.body)).toMatchObject({ resource: 'https://mcp.example.com/tools' });
      const challenge = (await rawPost(handle.url, INITIALIZE)).headers['www-authenticate'];
      expect(challenge).toBe('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/tools"');
      const notes = createNotesRegistry();
      await expect(
        serveHttp(notes.registry, { authenticate: bearerAuthenticator(verifier), protectedResource: { resource: 'javascript:alert(1)' } }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it(
      'serves callers without credentials as anonymous only when the ' + 'host opts in: offered no tool, calls answered as unknown tools',
      async () => {
        const { handle } = await serve({ allowAnonymous: true });
        const client = await connect(handle.url, null);
        expect((await client.listTools()).tools).toEqual([]);
        await expectAnsweredAsUnknownTool(client.callTool({ name: 'list_notes', arguments: {} }), 'list_notes');
        // An unknown token is still refused: opting in to anonymous access accepts no bad credentials.
        const bad = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer stolen-token' });
        expect(bad.status).toBe(401);
      },
    );

    it('refuses to start with neither an authenticator nor allowAnonymous', async () => {
      const notes = createNotesRegistry();
      await expect(serveHttp(notes.registry)).rejects.toThrow(
        'serveHttp needs an authenticator (authenticate) or an explicit allowAnonymous: true to serve callers without credentials.',
      );
      await expect(serveHttp(notes.registry, { allowAnonymous: false })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('treats every caller as anonymous with allowAnonymous and no authenticator', async () => {
      const notes = createNotesRegistry();
      const handle = await serveHttp(notes.registry, { allowAnonymous: true });
      handles.push(handle);
      const client = await connect(handle.url, 'writer-token');
      await expectAnsweredAsUnknownTool(client.callTool({ name: 'list_notes', arguments: {} }), 'list_notes');
    });

    it('answers 401 with a Bearer challenge to an unknown token, before any session exists', async () => {
      const { handle } = await serve();
      const response = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer stolen-token' });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe(
        'Bearer error="invalid_token", error_description="Unknown token", ' +
          `resource_metadata="http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(JSON.parse(response.body)).toMatchObject({ error: { message: 'Unauthorized: Unknown token' } });
      expect(handle.sessionCount).toBe(0);
    });

    it('answers 401 to a malformed Authorization header', async () => {
      const { handle } = await serve();
      const response = await rawPost(handle.url, INITIALIZE, { Authorization: 'Basic dXNlcjpwYXNz' });
      expect(response.status).toBe(401);
    });

    it('answers 500 and runs nothing when the authenticator itself fails', async () => {
      const { handle } = await serve({
        authenticate: () => {
          throw new Error('token database unreachable');
        },
      });
      const response = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer writer-token' });
      expect(response.status).toBe(500);
      expect(response.body).not.toContain('unreachable');
      expect(handle.sessionCount).toBe(0);
    });

    it('refuses a request on a session opened by another principal', async () => {
      const { handle, recorder } = await serve();
      const opened = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer reader-token' });
      const sessionId = opened.headers['mcp-session-id'] as string;
      expect(sessionId).toMatch(/[0-9a-f-]{36}/);
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_note', arguments: { id: 1 } } };
      const hijack = await rawPost(handle.url, call, {
        Authorization: 'Bearer writer-token',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      });
      expect(hijack.status).toBe(403);
      expect(JSON.parse(hijack.body)).toMatchObject({ error: { message: 'Forbidden: this session belongs to another principal' } });
      const anonymous = await rawPost(handle.url, call, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' });
      expect(anonymous.status).toBe(401);
      expect(recorder.deleted).toEqual([]);
    });
  });

  describe('sessions', () => {
    it('sendToolListChanged notifies the client of every open session, and never rejects once closed', async () => {
      const { handle } = await serve();
      const reader = await connect(handle.url, 'reader-token');
      const writer = await connect(handle.url, 'writer-token');
      const heard = { reader: 0, writer: 0 };
      reader.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        heard.reader += 1;
      });
      writer.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        heard.writer += 1;
      });
      // The standing GET stream opens right after the client connects; send until both have heard one.
      await vi.waitFor(
        async () => {
          await handle.sendToolListChanged();
          expect(heard.reader).toBeGreaterThan(0);
          expect(heard.writer).toBeGreaterThan(0);
        },
        { timeout: 30_000, interval: 100 },
      );
      await handle.close();
      await expect(handle.sendToolListChanged()).resolves.toBeUndefined();
    });

    it('answers 404 to an unknown session id and 400 to a non-initialize request without one', async () => {
      const { handle } = await serve();
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      const unknown = await rawPost(handle.url, list, { Authorization: 'Bearer reader-token', 'mcp-session-id': 'no-such-session' });
      expect(unknown.status).toBe(404);
      const missing = await rawPost(handle.url, list, { Authorization: 'Bearer reader-token' });
      expect(missing.status).toBe(400);
    });

    it('answers 400 to a body that is not JSON and 413 to a body over the limit', async () => {
      const { handle } = await serve({ maxBodyBytes: 64 });
      const auth = { Authorization: 'Bearer reader-token' };
      const garbage = await rawRequest(handle.url, 'POST', { 'Content-Type': 'application/json', ...auth }, '{not json');
      expect(garbage.status).toBe(400);
      expect(JSON.parse(garbage.body)).toMatchObject({ error: { code: -32700 } });
      const large = await rawPost(handle.url, INITIALIZE, auth);
      expect(large.status).toBe(413);
    });

    it('opens no session for a refused initialize', async () => {
      const { handle } = await serve();
      const response = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer reader-token', Accept: 'text/plain' });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(handle.sessionCount).toBe(0);
    });

    it('closes a session on DELETE', async () => {
      const { handle } = await serve();
      const client = await connect(handle.url, 'reader-token');
      expect(handle.sessionCount).toBe(1);
      await (client.transport as StreamableHTTPClientTransport).terminateSession();
      expect(handle.sessionCount).toBe(0);
    });

    it('closes a session that saw no request for sessionIdleTimeoutMs, and keeps an active one', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
      const { handle } = await serve({ sessionIdleTimeoutMs: 1000 });
      const idle = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer reader-token' });
      const active = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer reader-token' });
      expect(handle.sessionCount).toBe(2);
      vi.advanceTimersByTime(600);
      const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
      const headers = { Authorization: 'Bearer reader-token', 'mcp-protocol-version': '2025-11-25' };
      expect((await rawPost(handle.url, ping, { ...headers, 'mcp-session-id': active.headers['mcp-session-id'] as string })).status).toBe(
        200,
      );
      vi.advanceTimersByTime(600);
      expect(handle.sessionCount).toBe(1);
      const gone = await rawPost(handle.url, ping, { ...headers, 'mcp-session-id': idle.headers['mcp-session-id'] as string });
      expect(gone.status).toBe(404);
    });

    it('answers 404 for a session idle past sessionIdleTimeoutMs even before the idle sweep has run', async () => {
      // Only the clock moves: the sweep timer never fires, so the lookup itself must expire the session.
      vi.useFakeTimers({ toFake: ['Date'] });
      const { handle } = await serve({ sessionIdleTimeoutMs: 60_000 });
      const idle = await rawPost(handle.url, INITIALIZE, { Authorization: 'Bearer reader-token' });
      const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
      const headers = {
        Authorization: 'Bearer reader-token',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': idle.headers['mcp-session-id'] as string,
      };
      vi.setSystemTime(Date.now() + 59_999);
      expect((await rawPost(handle.url, ping, headers)).status).toBe(200);
      vi.setSystemTime(Date.now() + 60_000);
      expect((await rawPost(handle.url, ping, headers)).status).toBe(404);
      expect(handle.sessionCount).toBe(0);
    });

    it('rejects invalid options', async () => {
      const notes = createNotesRegistry();
      const authenticate = bearerAuthenticator(verifier);
      await expect(serveHttp(notes.registry, { authenticate, maxBodyBytes: 0 })).rejects.toThrow(
        'serveHttp option maxBodyBytes must be a positive number, got 0.',
      );
      await expect(serveHttp(notes.registry, { authenticate, sessionIdleTimeoutMs: -1 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });
  });

  describe('Host and Origin', () => {
    const auth = { Authorization: 'Bearer reader-token' };

    it('refuses a non-loopback Host and Origin with 403 on a loopback bind and accepts the loopback ones', async () => {
      const { handle } = await serve();
      const evil = await rawPost(handle.url, INITIALIZE, { ...auth, Host: 'evil.example.com', Origin: 'http://evil.example.com' });
      expect(evil.status).toBe(403);
      expect(handle.sessionCount).toBe(0);
      const local = await rawPost(handle.url, INITIALIZE, {
        ...auth,
        Host: `localhost:${handle.port}`,
        Origin: `http://localhost:${handle.port}`,
      });
      expect(local.status).toBe(200);
    });

    it('refuses a loopback Host with a foreign Origin, before authenticating', async () => {
      const authenticate = vi.fn(bearerAuthenticator(verifier));
      const { handle } = await serve({ authenticate });
      const response = await rawPost(handle.url, INITIALIZE, { ...auth, Origin: 'https://attacker.example' });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ error: { message: 'Forbidden: Invalid Origin header: https://attacker.example' } });
      expect(authenticate).not.toHaveBeenCalled();
    });

    it('accepts configured hosts and origins', async () => {
      const { handle } = await serve({ allowedHosts: ['mcp.internal'], allowedOrigins: ['https://app.example.com'] });
      const byHost = await rawPost(handle.url, INITIALIZE, { ...auth, Host: 'mcp.internal:8080' });
      expect(byHost.status).toBe(200);
      const byOrigin = await rawPost(handle.url, INITIALIZE, { ...auth, Origin: 'https://app.example.com' });
      expect(byOrigin.status).toBe(200);
    });

    describe('on a non-loopback bind address', () => {
      // The endpoint is configured as if bound to every interface, but served on loopback only.
      async function serveAsPublic(options: HttpServeOptions = {}): Promise<string> {
        const notes = createNotesRegistry();
        const endpoint = new McpHttpEndpoint(notes.registry, { host: '0.0.0.0', authenticate: bearerAuthenticator(verifier), ...options });
        const server = createServer((request, response) => void endpoint.handle(request, response));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        handles.push({
          url: '',
          port: 0,
          sessionCount: 0,
          connectionCount: 0,
          replayBytes: 0,
          sendToolListChanged: () => endpoint.sendToolListChanged(),
          close: async () => {
            await endpoint.close();
            server.closeAllConnections();
            await new Promise<void>((resolve) => server.close(() => resolve()));
          },
        });
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      }

      it('refuses a foreign Origin (403) and accepts a request without one and any Host', async () => {
        const url = await serveAsPublic();
        const evil = await rawPost(url, INITIALIZE, { ...auth, Host: 'mcp.example.com', Origin: 'http://evil.example' });
        expect(evil.status).toBe(403);
        expect(JSON.parse(evil.body)).toMatchObject({ error: { message: 'Forbidden: Invalid Origin header: http://evil.example' } });
        const plain = await rawPost(url, INITIALIZE, { ...auth, Host: 'mcp.example.com' });
        expect(plain.status).toBe(200);
        const loopbackOrigin = await rawPost(url, INITIALIZE, { ...auth, Host: 'mcp.example.com', Origin: 'http://localhost:5173' });
        expect(loopbackOrigin.status).toBe(200);
      });

      it('accepts the configured origins, and origins on the configured hosts', async () => {
        const url = await serveAsPublic({ allowedOrigins: ['https://app.example.com'], allowedHosts: ['mcp.example.com'] });
        const listed = await rawPost(url, INITIALIZE, { ...auth, Host: 'mcp.example.com', Origin: 'https://app.example.com' });
        expect(listed.status).toBe(200);
        const sameHost = await rawPost(url, INITIALIZE, { ...auth, Host: 'mcp.example.com', Origin: 'https://mcp.example.com' });
        expect(sameHost.status).toBe(200);
        const other = await rawPost(url, INITIALIZE, { ...auth, Host: 'mcp.example.com', Origin: 'https://app.example.com.evil.example' });
        expect(other.status).toBe(403);
      });

      it('checks the Host header only when an allow-list is configured', async () => {
        const open = await serveAsPublic();
        expect((await rawPost(open, INITIALIZE, { ...auth, Host: 'anything.example' })).status).toBe(200);
        const listed = await serveAsPublic({ allowedHosts: ['mcp.example.com'] });
        const refused = await rawPost(listed, INITIALIZE, { ...auth, Host: 'anything.example' });
        expect(refused.status).toBe(403);
        expect(JSON.parse(refused.body)).toMatchObject({ error: { message: 'Forbidden: Invalid Host header: anything.example' } });
        expect((await rawPost(listed, INITIALIZE, { ...auth, Host: 'mcp.example.com:443' })).status).toBe(200);
      });
    });
  });

  describe('tool calls over HTTP', () => {
    it('asks for confirmation through elicitation and runs the call when the person accepts', async () => {
      const { handle, recorder } = await serve();
      const client = await connect(handle.url, 'writer-token', { elicitation: {} });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: {} }));
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 5 } });
      expect(result.structuredContent).toEqual({ deleted: 5 });
      expect(recorder.deleted).toEqual([5]);
    });

    it('runs nothing when the person declines the confirmation', async () => {
      const { handle, recorder } = await serve();
      const client = await connect(handle.url, 'writer-token', { elicitation: {} });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 5 } });
      expect(result.structuredContent).toEqual({ code: 'CONFIRMATION_DECLINED', action_summary: 'delete_note(id=5)' });
      expect(recorder.deleted).toEqual([]);
    });

    it('streams progress notifications to the caller', async () => {
      const { handle } = await serve();
      const client = await connect(handle.url, 'reader-token');
      const progress: number[] = [];
      await client.callTool({ name: 'count', arguments: {} }, undefined, { onprogress: (update) => void progress.push(update.progress) });
      expect(progress).toEqual([0, 50, 100]);
    });

    it("aborts the handler's signal when the client cancels", async () => {
      const { handle, recorder } = await serve();
      const client = await connect(handle.url, 'reader-token');
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait_for_abort', arguments: {} }, undefined, { signal: controller.signal });
      await recorder.started;
      controller.abort();
      await expect(call).rejects.toThrow();
      await expect(recorder.aborted).resolves.toBeDefined();
    });

    it('closes every session, aborts running handlers and stops listening on close()', async () => {
      const { handle, recorder } = await serve();
      const client = await connect(handle.url, 'reader-token');
      // The pending call is left to the client (it may wait for a reconnection); only the server side matters here.
      void client.callTool({ name: 'wait_for_abort', arguments: {} }).catch(() => undefined);
      await recorder.started;
      await handle.close();
      await expect(recorder.aborted).resolves.toBeDefined();
      expect(handle.sessionCount).toBe(0);
      await expect(rawPost(handle.url, INITIALIZE)).rejects.toThrow();
    });
  });

  it('serves stdio-style trusted contexts when the host supplies its own context builder', async () => {
    const notes = createNotesRegistry();
    const handle = await serveHttp(notes.registry, { allowAnonymous: true, context: ({ requestId }) => ToolContext.stdio(requestId) });
    handles.push(handle);
    const client = await connect(handle.url, null);
    const result = await client.callTool({ name: 'list_notes', arguments: {} });
    expect(result.isError).toBeUndefined();
  });
});
