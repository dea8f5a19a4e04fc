import type { ToolContext, ToolResult } from '@milpa/core';

/**
 * Turns a successful `ToolResult` into the text an MCP client shows the model. `DefaultRenderer`
 * and `RendererRegistry` from `@milpa/tool-runtime` both fit.
 */
export interface McpResultRenderer {
  /** The result as plain text. */
  render(result: ToolResult, context?: ToolContext | null): string;
}
