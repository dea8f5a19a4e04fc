import type { AnyToolDefinition } from '@milpa/core';
import { formatTable } from './format-table.js';
import type { TerminalStyle } from './terminal-style.js';

/**
 * The registry's tools as a table: name, the scopes of which a caller needs one, whether the tool
 * mutates, when it asks for confirmation (`always`, on the channels in `confirmingChannels` when it
 * mutates, or `no`), and its description.
 *
 * @example
 * process.stdout.write(formatToolList(registry.getToolDefinitions(), style, ['telegram']));
 */
export function formatToolList(
  definitions: readonly AnyToolDefinition[],
  style: TerminalStyle,
  confirmingChannels: readonly string[] = [],
): string {
  const onChannels = confirmingChannels.length === 0 ? 'no' : `on ${confirmingChannels.join(', ')}`;
  const rows = [['tool', 'scopes (one of)', 'mutating', 'confirm', 'description']];
  for (const definition of definitions) {
    rows.push([
      definition.name,
      definition.scopes.length === 0 ? '(none)' : definition.scopes.join(', '),
      definition.mutating ? 'yes' : 'no',
      definition.requiresConfirmation ? 'always' : definition.mutating ? onChannels : 'no',
      definition.description,
    ]);
  }
  return `${style.bold(`${definitions.length} tools in the demo registry`)}\n\n${formatTable(rows, { header: style.bold })}`;
}
