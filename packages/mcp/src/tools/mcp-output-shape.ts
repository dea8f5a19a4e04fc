import type { JsonSchema } from '@milpa/core';

/**
 * How a tool's declared output schema appears on the wire. MCP (2025 revisions, SDK 1.x) requires
 * an object root for `outputSchema` and an object for `structuredContent`, so a non-object output
 * schema is listed wrapped as `{ result: <schema> }` and its data is sent as `{ result: data }`
 * (the shape the TypeScript SDK v2 uses for such tools).
 */
export interface McpOutputShape {
  /** The `outputSchema` to list; `structuredContent` is validated against it too. */
  readonly listedSchema: JsonSchema;
  /** True when the data travels as `{ result: data }`. */
  readonly wrapped: boolean;
}

// Keyed by the (frozen) declared schema, so the listed schema keeps one identity and the registry's
// validator compiles it once.
const shapes = new WeakMap<JsonSchema, McpOutputShape>();

function hasObjectRoot(schema: JsonSchema): boolean {
  const type = schema['type'];
  if (type === 'object') return true;
  // An untyped schema that only declares properties describes an object in practice.
  return type === undefined && typeof schema['properties'] === 'object' && schema['properties'] !== null;
}

function describeShape(outputSchema: JsonSchema): McpOutputShape {
  if (hasObjectRoot(outputSchema)) {
    return { listedSchema: outputSchema['type'] === 'object' ? outputSchema : { type: 'object', ...outputSchema }, wrapped: false };
  }
  return { listedSchema: { type: 'object', properties: { result: outputSchema }, required: ['result'] }, wrapped: true };
}

/** The wire shape of an output schema, or null when the tool declares none. */
export function resolveMcpOutputShape(outputSchema: JsonSchema | null): McpOutputShape | null {
  if (outputSchema === null) return null;
  let shape = shapes.get(outputSchema);
  if (shape === undefined) {
    shape = describeShape(outputSchema);
    shapes.set(outputSchema, shape);
  }
  return shape;
}
