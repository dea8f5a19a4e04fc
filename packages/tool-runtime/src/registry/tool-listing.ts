import type { AnyToolDefinition, JsonSchema, ToolSummary } from '@milpa/core';
import type { ToolListing } from './tool-registry-options.js';

/** The listed schema of a tool without arguments: one shared frozen object, so caches keyed by schema hit. */
const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object' });

/**
 * The LLM/MCP wire summary of a tool: `{name, description, inputSchema, version?, outputSchema?}`;
 * an empty input schema is listed as `{type:'object'}`.
 */
export function summarizeTool(definition: AnyToolDefinition): ToolSummary {
  const summary: { -readonly [K in keyof ToolSummary]: ToolSummary[K] } = {
    name: definition.name,
    description: definition.description,
    inputSchema: Object.keys(definition.inputSchema).length === 0 ? EMPTY_OBJECT_SCHEMA : definition.inputSchema,
  };
  if (definition.version !== null) summary.version = definition.version;
  if (definition.outputSchema !== null) summary.outputSchema = definition.outputSchema;
  return summary;
}

/** `{ name, description, inputSchema }` of a tool, as the scope and prefix listings return it. */
export function listTool(definition: AnyToolDefinition): ToolListing {
  return { name: definition.name, description: definition.description, inputSchema: definition.inputSchema };
}
