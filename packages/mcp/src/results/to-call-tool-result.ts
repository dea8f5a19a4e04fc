import { ToolErrorCode, ToolResult, type AnyToolDefinition, type JsonSchema, type ToolContext } from '@milpa/core';
import { isRecord } from '@milpa/core/kit';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { resolveMcpOutputShape } from '../tools/mcp-output-shape.js';
import type { McpResultRenderer } from './mcp-result-renderer.js';
import { toRefusalResult } from './to-refusal-result.js';

/** The part of the registry's `SchemaValidator` used to check output against `outputSchema`. */
export interface OutputValidator {
  /** A (cached) validator for `schema`. */
  compile(schema: JsonSchema): (value: unknown) => { readonly errors: readonly string[] };
}

/**
 * A settled `ToolResult` as an MCP `CallToolResult`:
 * - failure → {@link toRefusalResult} (`isError: true`, `{ code, errors? }`);
 * - rich content (`ToolResult.content`) → the blocks, passed through unchanged;
 * - any other success → the rendered text, plus `structuredContent` for object data. When the tool
 *   declares an `outputSchema`, the data always travels as `structuredContent` (wrapped as
 *   `{ result }` for a non-object schema) and must satisfy it; data that does not is reported as
 *   an `INTERNAL_ERROR` tool error rather than sent to a client that would reject it.
 */
export function toCallToolResult(
  result: ToolResult,
  definition: AnyToolDefinition,
  context: ToolContext,
  renderer: McpResultRenderer,
  validator: OutputValidator,
): CallToolResult {
  if (!result.success) return toRefusalResult(result, definition);
  const blocks = result.getContent();
  if (blocks !== null) return { content: blocks.map((block) => ({ ...block }) as ContentBlock) };

  const text = renderer.render(result, context);
  const output = resolveMcpOutputShape(definition.outputSchema);
  if (output === null) {
    const mapped: CallToolResult = { content: [{ type: 'text', text }] };
    if (isRecord(result.data)) mapped.structuredContent = result.data;
    return mapped;
  }
  const structuredContent = output.wrapped ? { result: result.data } : result.data;
  // The registry's validator words a non-object root as an argument problem; say it for output.
  const problems = isRecord(structuredContent)
    ? validator.compile(output.listedSchema)(structuredContent).errors
    : [
        `expected an object, got ${
          Array.isArray(structuredContent) ? 'array' : structuredContent === null ? 'null' : typeof structuredContent
        }`,
      ];
  if (problems.length > 0) {
    const failure = ToolResult.failure(
      ToolErrorCode.INTERNAL_ERROR,
      `Tool '${definition.name}' returned data that does not match its output schema: ${problems.join('; ')}`,
    );
    return toRefusalResult(failure, definition);
  }
  return { content: [{ type: 'text', text }], structuredContent: structuredContent as Record<string, unknown> };
}
