/** The `CallToolResult` a refusal of a tool without `outputSchema` must equal. */
export function toolError(text: string, details: Record<string, unknown>): Record<string, unknown> {
  return { isError: true, content: [{ type: 'text', text }], structuredContent: details, _meta: { 'lat.milpa/error': details } };
}
