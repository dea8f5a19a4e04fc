import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/**
 * Asserts that a `tools/call` was answered as for a tool that does not exist: the protocol's
 * `InvalidParams` error naming `name` as not found, with no tool result (so nothing tells the
 * caller that the tool exists or which scope it needs).
 */
export async function expectAnsweredAsUnknownTool(call: Promise<unknown>, name: string): Promise<void> {
  const error = await call.then(
    (result) => result,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
  expect((error as McpError).message).toContain(`Tool not found: ${name}`);
}
