import type { AnyToolDefinition } from '@milpa/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_ERROR_META_KEY, type McpToolErrorContent } from './mcp-tool-error-content.js';

/**
 * An MCP tool execution error: `isError: true`, `text` for the model, and the reason as
 * `structuredContent` and `_meta['lat.milpa/error']`. `structuredContent` is left out for a tool
 * that declares an `outputSchema`: SDK 1.x clients validate it against that schema even on errors
 * and would turn the refusal into an exception.
 */
export function toToolErrorResult(text: string, details: McpToolErrorContent, definition: AnyToolDefinition | null): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text }], isError: true, _meta: { [MCP_ERROR_META_KEY]: details } };
  if (definition === null || definition.outputSchema === null) result.structuredContent = { ...details };
  return result;
}
