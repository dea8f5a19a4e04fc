import type { ToolRegistry } from '@milpa/tool-runtime';
import { DemoUsageError } from './demo-usage-error.js';
import { suggestName } from './suggest-name.js';

/**
 * Checks that `name` is a tool of `registry`; otherwise throws a {@link DemoUsageError}
 * (`UNKNOWN_TOOL`) whose hint suggests the closest tool name and the `list` command.
 *
 * @example
 * requireTool(demo.registry, 'list_note'); // throws: unknown tool 'list_note' (hint: did you mean 'list_notes'? …)
 */
export function requireTool(registry: ToolRegistry, name: string): void {
  if (registry.has(name)) return;
  const suggestion = suggestName(
    name,
    registry.getToolDefinitions().map((definition) => definition.name),
  );
  const guess = suggestion === null ? '' : `did you mean '${suggestion}'? `;
  throw new DemoUsageError(`unknown tool '${name}'`, `${guess}Run 'pnpm demo list' to see every tool.`, 'UNKNOWN_TOOL');
}
