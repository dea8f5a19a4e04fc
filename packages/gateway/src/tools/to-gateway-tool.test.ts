import { ToolContext, unsupportedCaller, type ToolInvocation } from '@milpa/core';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { UpstreamConnection } from '../upstream/upstream-connection.js';
import type { ResolvedToolPolicy } from './resolve-tool-policy.js';
import { toGatewayTool } from './to-gateway-tool.js';

const policy: ResolvedToolPolicy = {
  scopes: [],
  mutating: false,
  requiresConfirmation: false,
  approval: null,
  rateCost: null,
  maxResultTokens: 100,
  timeoutMs: 5_000,
};

/** A connection whose calls fail with `error`. */
function failingConnection(error: unknown): UpstreamConnection {
  return {
    name: 'files',
    state: 'ready',
    tools: [{ name: 'read', inputSchema: { type: 'object' } }],
    retryAfterMs: null,
    callTool: () => Promise.reject(error),
  } as unknown as UpstreamConnection;
}

describe('toGatewayTool', () => {
  it('caps a huge error text the upstream sent with a protocol error, like any result', async () => {
    const connection = failingConnection(new McpError(ErrorCode.InvalidParams, 'p'.repeat(500_000)));
    const tool = toGatewayTool({ connection, tool: { name: 'read', inputSchema: { type: 'object' } }, name: 'files_read', policy });
    const invocation = {
      context: ToolContext.cli(),
      signal: new AbortController().signal,
      caller: unsupportedCaller,
    } as unknown as ToolInvocation;
    const result = await tool.handler({}, invocation);
    expect(result.meta).toMatchObject({ upstream_error: 'protocol_error', truncated: true, max_chars: 400 });
    expect((result.error as string).length).toBeLessThanOrEqual(400);
  });
});
