import { mutabilityOf, type AnyToolDefinition } from '@milpa/core';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { resolveMcpOutputShape } from './mcp-output-shape.js';

/**
 * One registry definition as an MCP `tools/list` entry: its own JSON Schema (2020-12) as
 * `inputSchema`, never re-declared in another schema library; `outputSchema` when declared; and
 * annotations derived from the definition (`readOnlyHint` for non-mutating tools,
 * `destructiveHint` for mutating ones and for tools whose mutability depends on their arguments,
 * since a client cannot know those in advance; the title when it has one).
 */
export function toMcpTool(definition: AnyToolDefinition): Tool {
  const inputSchema = definition.inputSchema;
  // MCP requires an object root; an empty schema (a tool without arguments) is listed as one.
  const listedInput = inputSchema['type'] === 'object' ? inputSchema : { type: 'object', ...inputSchema };
  const tool: Tool = {
    name: definition.name,
    description: definition.description,
    inputSchema: listedInput as Tool['inputSchema'],
    annotations: mutabilityOf(definition) === 'read_only' ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: true },
  };
  if (definition.title !== null) {
    tool.title = definition.title;
    tool.annotations = { ...tool.annotations, title: definition.title };
  }
  const output = resolveMcpOutputShape(definition.outputSchema);
  if (output !== null) tool.outputSchema = output.listedSchema as Tool['outputSchema'];
  return tool;
}
