import { ToolResult, isContentBlock, type ContentBlock } from '@milpa/core';
import { capToolResult } from '@milpa/tool-runtime';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UPSTREAM_ERROR_META_KEY } from './upstream-error-kind.js';

function toBlocks(content: readonly unknown[] | undefined): ContentBlock[] {
  // A block of a kind this version does not know travels as its JSON text rather than being lost.
  return (content ?? []).map((block) => (isContentBlock(block) ? block : { type: 'text', text: JSON.stringify(block) }));
}

/**
 * An upstream's `CallToolResult` as a `ToolResult`, cut to `maxChars` by the runtime's
 * whole-result cap ({@link capToolResult}: content blocks, structured content, error text and
 * meta together, with `meta.truncated`; 0 keeps everything): its content blocks pass through, a
 * result with structured content only becomes that data, and `isError: true` becomes a failure
 * without a code (shown to MCP clients as `TOOL_ERROR`) carrying the upstream's text and
 * `meta.upstream_error: 'tool_error'`. `meta.upstream` names the upstream; structured content also
 * travels in `meta.structured_content`.
 *
 * @example
 * toUpstreamResult({ content: [{ type: 'text', text: 'ok' }] }, 'files', 2_500 * 4).getContent(); // [{ type: 'text', text: 'ok' }]
 */
export function toUpstreamResult(result: CallToolResult, upstream: string, maxChars: number): ToolResult {
  const built = buildResult(result, upstream);
  return maxChars > 0 ? (capToolResult(built, maxChars) ?? built) : built;
}

function buildResult(result: CallToolResult, upstream: string): ToolResult {
  const blocks = toBlocks(result.content);
  if (result.isError === true) {
    const text = blocks
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
    return ToolResult.error(text === '' ? `Upstream '${upstream}' reported an error without a message.` : text, null, {
      upstream,
      [UPSTREAM_ERROR_META_KEY]: 'tool_error',
    });
  }
  const structured = result.structuredContent;
  const meta: Record<string, unknown> = { upstream, ...(structured === undefined ? {} : { structured_content: structured }) };
  if (blocks.length === 0 && structured !== undefined) return ToolResult.success(structured, null, meta);
  return ToolResult.content(blocks, null, meta);
}
