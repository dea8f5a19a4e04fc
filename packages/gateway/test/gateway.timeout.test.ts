// A tool's deadline (timeoutMs in its policy): the pipeline answers TIMEOUT at the deadline and the
// upstream is told to stop.
import { ToolContext } from '@milpa/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createGateway, parseGatewayConfig, type Gateway } from '../src/index.js';
import { CallLog, stdioUpstream } from './support/upstream-fixture.js';

const log = new CallLog();
let gateway: Gateway | null = null;

afterAll(async () => {
  await gateway?.close();
});

describe('Gateway deadlines', () => {
  it("answers TIMEOUT at the tool's deadline and cancels the call on the upstream", async () => {
    gateway = await createGateway(parseGatewayConfig({ upstreams: [stdioUpstream('up', log, { tools: { slow: { timeoutMs: 300 } } })] }, { env: {} }));
    await gateway.whenReady();
    const result = await gateway.registry.call('up_slow', {}, ToolContext.cli());
    expect(result.getCode()).toBe('TIMEOUT');
    await vi.waitFor(() => expect(log.entries().some((entry) => entry.tool === 'slow' && entry.cancelled === true)).toBe(true), { timeout: 30_000, interval: 50 });
  });
});
