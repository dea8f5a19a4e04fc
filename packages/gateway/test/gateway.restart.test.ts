// Upstreams that die: a stdio child killed in the middle of a call, and while idle; an HTTP
// upstream that stops answering. The client always gets a typed result, never a hang, and a
// restarted upstream serves the next call.
import { ToolContext } from '@milpa/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGateway, parseGatewayConfig, type Gateway, type UpstreamConfig } from '../src/index.js';
import { connectClient, errorCode, textOf } from './support/gateway-client.js';
import { CallLog, httpUpstream, startHttpFixture, stdioUpstream, type HttpFixture } from './support/upstream-fixture.js';

const TOKEN = 'restart-test-token-5b3d';
let gateway: Gateway | null = null;
let fixture: HttpFixture | null = null;
const clients: Client[] = [];

async function start(
  upstream: UpstreamConfig,
  restart: { initialDelayMs: number; maxDelayMs: number },
): Promise<{ gateway: Gateway; client: Client }> {
  process.env['GW_TEST_RESTART_TOKEN'] = TOKEN;
  gateway = await createGateway(
    parseGatewayConfig({
      upstreams: [upstream],
      restart,
      server: { transport: 'http', tokens: [{ tokenEnv: 'GW_TEST_RESTART_TOKEN', principal: 'agent:one', scopes: [] }] },
    }),
  );
  await gateway.whenReady();
  const client = await connectClient((await gateway.serveHttp()).url, TOKEN);
  clients.push(client);
  return { gateway, client };
}

function metaOf(result: CallToolResult): Record<string, unknown> {
  return result._meta?.['lat.milpa/error'] as Record<string, unknown>;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await gateway?.close();
  gateway = null;
  await fixture?.stop();
  fixture = null;
});

describe('Gateway with an upstream that dies', () => {
  it('answers a call whose upstream is killed mid-call with a typed error, and the next call after the restart succeeds', async () => {
    const log = new CallLog();
    const { gateway, client } = await start(stdioUpstream('up', log), { initialDelayMs: 50, maxDelayMs: 200 });
    const firstPid = gateway.upstreams()[0]!.pid;
    expect(firstPid).toEqual(expect.any(Number));

    const result = (await client.callTool({ name: 'up_slow', arguments: {} }, undefined, {
      onprogress: (update) => {
        // The upstream says it has started; kill it now, mid-call.
        process.kill(Number(/pid=(\d+)/.exec(update.message ?? '')?.[1]), 'SIGKILL');
      },
    })) as CallToolResult;
    expect(errorCode(result)).toBe('INTERNAL_ERROR');
    expect(textOf(result)).toMatch(/connection to upstream 'up' was lost during the call to 'up_slow'/);

    await gateway.whenReady('up');
    const next = (await client.callTool({ name: 'up_echo', arguments: { text: 'after restart' } })) as CallToolResult;
    expect(errorCode(next)).toBeNull();
    expect(textOf(next)).toBe('after restart');
    const secondPid = gateway.upstreams()[0]!.pid;
    expect(secondPid).not.toBe(firstPid);
    expect(log.entries().find((entry) => entry.tool === 'echo')?.pid).toBe(secondPid);
  });

  it('answers unavailable, with retry_after_seconds, while the upstream is restarting, and keeps its tools listed', async () => {
    const log = new CallLog();
    const { gateway, client } = await start(stdioUpstream('up', log), { initialDelayMs: 600_000, maxDelayMs: 600_000 });
    process.kill(gateway.upstreams()[0]!.pid!, 'SIGKILL');
    await vi.waitFor(() => expect(gateway.upstreams()[0]!.state).toBe('restarting'), { timeout: 30_000, interval: 20 });

    const result = (await client.callTool({ name: 'up_echo', arguments: { text: 'while down' } })) as CallToolResult;
    expect(errorCode(result)).toBe('UPSTREAM_UNAVAILABLE');
    expect(textOf(result)).toMatch(/Upstream 'up' is unavailable/);
    expect(metaOf(result)['retry_after_seconds']).toBeGreaterThan(500);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('up_echo');

    const direct = await gateway.registry.call('up_echo', { text: 'while down' }, ToolContext.cli());
    expect(direct.meta['upstream_error']).toBe('unavailable');
    expect(direct.meta['upstream']).toBe('up');
    expect(log.count('echo')).toBe(0);
  });

  it('answers a typed error when an HTTP upstream stops answering, then unavailable while it reconnects', async () => {
    const log = new CallLog();
    fixture = await startHttpFixture(log);
    const { gateway, client } = await start(httpUpstream('web', fixture), { initialDelayMs: 600_000, maxDelayMs: 600_000 });
    const ok = (await client.callTool({ name: 'web_echo', arguments: { text: 'over http' } })) as CallToolResult;
    expect(textOf(ok)).toBe('over http');

    await fixture.stop();
    const lost = (await client.callTool({ name: 'web_echo', arguments: { text: 'gone' } })) as CallToolResult;
    expect(errorCode(lost)).toBe('INTERNAL_ERROR');
    expect(textOf(lost)).toMatch(/upstream 'web'/i);
    expect(gateway.upstreams()[0]!.state).toBe('restarting');
    const next = await gateway.registry.call('web_echo', { text: 'gone' }, ToolContext.cli());
    expect(next.meta['upstream_error']).toBe('unavailable');
    expect(next.getCode()).toBe('UPSTREAM_UNAVAILABLE');
  });
});
