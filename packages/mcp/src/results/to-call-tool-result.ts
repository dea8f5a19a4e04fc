import { ToolErrorCode, ToolResult, type AnyToolDefinition, type JsonSchema, type ToolContext } from '@milpa/core';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { resolveMcpOutputShape } from '../tools/mcp-output-shape.js';
import type { McpResultRenderer } from './mcp-result-renderer.js';
import { toRefusalResult } from './to-refusal-result.js';

/** The part of the registry's `SchemaValidator` used to check output against `outputSchema`. */
export interface OutputValidator {
  /** A (cached) validator for `schema`. */
  compile(schema: JsonSchema): (value: unknown) => { readonly valid: boolean; readonly errors: readonly string[] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A settled `ToolResult` as an MCP `CallToolResult`:
 * - failure → {@link toRefusalResult} (`isError: true`, `{ code, errors? }`);
 * - rich content (`ToolResult.content`) → the blocks, passed through unchanged;
 * - any other success → the rendered text, plus `structuredContent` for object data. When the tool
 *   declares an `outputSchema`, the data must satisfy it (it always travels as `structuredContent`,
 *   wrapped as `{ result }` for a non-object schema); data that does not is reported as an
 *   `INTERNAL_ERROR` tool error rather than sent to a client that would reject it.
 */
export function toCallToolResult(
  result: ToolResult,
  definition: AnyToolDefinition,
  context: ToolContext,
  renderer: McpResultRenderer,
  validator: OutputValidator,
): CallToolResult {
  if (!result.success) return toRefusalResult(result);
  const blocks = result.getContent();
  if (blocks !== null) return { content: blocks.map((block) => ({ ...block }) as ContentBlock) };

  const text = renderer.render(result, context);
  const output = resolveMcpOutputShape(definition.outputSchema);
  if (output === null) {
    const mapped: CallToolResult = { content: [{ type: 'text', text }] };
    if (isPlainObject(result.data)) mapped.structuredContent = result.data;
    return mapped;
  }
  const check = validator.compile(output.dataSchema)(result.data);
  if (!check.valid) {
    return toRefusalResult(
      ToolResult.failure(
        ToolErrorCode.INTERNAL_ERROR,
        `Tool '${definition.name}' returned data that does not match its output schema: ${check.errors.join('; ')}`,
      ),
    );
  }
  const structuredContent = output.wrapped ? { result: result.data } : (result.data as Record<string, unknown>);
  return { content: [{ type: 'text', text }], structuredContent };
}
