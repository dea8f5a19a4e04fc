import { ToolResult, isContentBlock, type ContentBlock } from '@milpa/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { capContentBlocks } from './cap-content-blocks.js';
import { UPSTREAM_ERROR_META_KEY } from './upstream-error-kind.js';

function toBlocks(content: readonly unknown[] | undefined): ContentBlock[] {
  // A block of a kind this version does not know travels as its JSON text rather than being lost.
  return (content ?? []).map((block) => (isContentBlock(block) ? block : { type: 'text', text: JSON.stringify(block) }));
}

/**
 * An upstream's `CallToolResult` as a `ToolResult`: its content blocks pass through (cut to
 * `maxChars` by {@link capContentBlocks}, with `meta.truncated`), a result with structured
 * content only becomes that data, and `isError: true` becomes a failure without a code (shown to
 * MCP clients as `TOOL_ERROR`) carrying the upstream's text and `meta.upstream_error: 'tool_error'`.
 * `meta.upstream` names the upstream; structured content also travels in `meta.structured_content`.
 *
 * @example
 * toUpstreamResult({ content: [{ type: 'text', text: 'ok' }] }, 'files', 2_500 * 4).getContent(); // [{ type: 'text', text: 'ok' }]
 */
export function toUpstreamResult(result: CallToolResult, upstream: string, maxChars: number): ToolResult {
  const blocks = toBlocks(result.content);
  if (result.isError === true) {
    const text = blocks
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
    const capped = maxChars > 0 && text.length > maxChars ? `${text.slice(0, maxChars)}\n[cut by the gateway's result cap]` : text;
    return ToolResult.error(capped === '' ? `Upstream '${upstream}' reported an error without a message.` : capped, null, {
      upstream,
      [UPSTREAM_ERROR_META_KEY]: 'tool_error',
    });
  }
  const structured = result.structuredContent;
  const meta: Record<string, unknown> = { upstream, ...(structured === undefined ? {} : { structured_content: structured }) };
  if (blocks.length === 0 && structured !== undefined) return ToolResult.success(structured, null, meta);
  const capped = capContentBlocks(blocks, maxChars);
  return ToolResult.content(capped.blocks, null, capped.truncated ? { ...meta, truncated: true } : meta);
}
