import type { JsonSchema } from './tool-definition.js';

/** A tool as listed to a model or an MCP client (`getToolSummaries()`). */
export interface ToolSummary {
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The JSON Schema of its arguments; an empty `properties` serializes as `{}`. */
  readonly inputSchema: JsonSchema;
  /** Its version, present only when set. */
  readonly version?: string;
  /** The JSON Schema of its result data, present only when set. */
  readonly outputSchema?: JsonSchema;
}
