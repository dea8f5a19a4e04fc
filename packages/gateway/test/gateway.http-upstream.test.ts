// An upstream reached over Streamable HTTP on loopback (a child process): configured headers reach
// it, the clients' credentials never do, and its tools/list_changed updates what clients see.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, parseGatewayConfig, type Gateway } from '../src/index.js';
import { connectClient, errorCode, textOf, toolNames } from './support/gateway-client.js';
import { CallLog, httpUpstream, startHttpFixture, type HttpFixture } from './support/upstream-fixture.js';

const CLIENT_TOKEN = 'client-token-never-forwarded-81ac';
const UPSTREAM_KEY = 'upstream-key-from-env-2c9f';
const log = new CallLog();
let fixture: HttpFixture;
let gateway: Gateway;
let client: Client;
let listChanges = 0;

beforeAll(async () => {
  fixture = await startHttpFixture(log);
  const env = { GW_TEST_HTTP_CLIENT: CLIENT_TOKEN, GW_TEST_UPSTREAM_KEY: UPSTREAM_KEY };
  gateway = await createGateway(
    parseGatewayConfig(
      {
        upstreams: [httpUpstream('web', fixture, { prefix: 'web.', headers: { 'X-Upstream-Key': 'key ${GW_TEST_UPSTREAM_KEY}' } })],
        server: { transport: 'http', tokens: [{ tokenEnv: 'GW_TEST_HTTP_CLIENT', principal: 'agent:web', scopes: [] }] },
      },
      { env },
    ),
    { env },
  );
  await gateway.whenReady();
  client = await connectClient((await gateway.serveHttp()).url, CLIENT_TOKEN);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanges += 1;
  });
});

afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await fixture?.stop();
});

describe('Gateway (HTTP upstream)', () => {
  it("names the upstream's tools with its prefix", async () => {
    expect(await toolNames(client)).toContain('web.echo');
  });

  it("sends the configured headers and never the client's Authorization", async () => {
    const result = (await client.callTool({ name: 'web.whoami', arguments: {} })) as CallToolResult;
    const seen = JSON.parse(textOf(result)) as { headers: Record<string, string> };
    expect(seen.headers['x-upstream-key']).toBe(`key ${UPSTREAM_KEY}`);
    expect(seen.headers['authorization']).toBeUndefined();
    expect(textOf(result)).not.toContain(CLIENT_TOKEN);
  });

  it('registers the tools the upstream adds after tools/list_changed and hides the ones it withdraws', async () => {
    expect(errorCode((await client.callTool({ name: 'web.toggle_extra', arguments: {} })) as CallToolResult)).toBeNull();
    await vi.waitFor(async () => expect(await toolNames(client)).toContain('web.extra'), { timeout: 30_000, interval: 50 });
    expect(textOf((await client.callTool({ name: 'web.extra', arguments: {} })) as CallToolResult)).toBe('extra ran');
    await client.callTool({ name: 'web.toggle_extra', arguments: {} });
    await vi.waitFor(async () => expect(await toolNames(client)).not.toContain('web.extra'), { timeout: 30_000, interval: 50 });
    expect(log.count('extra')).toBe(1);
  });

  it("notifies its HTTP client of each change of the upstream's list", async () => {
    const before = listChanges;
    await client.callTool({ name: 'web.toggle_extra', arguments: {} });
    await vi.waitFor(() => expect(listChanges).toBeGreaterThan(before), { timeout: 30_000, interval: 50 });
    expect(await toolNames(client)).toContain('web.extra');
    const added = listChanges;
    await client.callTool({ name: 'web.toggle_extra', arguments: {} });
    await vi.waitFor(() => expect(listChanges).toBeGreaterThan(added), { timeout: 30_000, interval: 50 });
    expect(await toolNames(client)).not.toContain('web.extra');
  });
});
