import { mutabilityOf, type AnyToolDefinition } from '@milpa/core';
import { formatTable } from './format-table.js';
import type { TerminalStyle } from './terminal-style.js';

/**
 * The registry's tools as a table: name, the scopes of which a caller needs one, whether the tool
 * mutates (`yes`, `no`, or `depends on arguments`), when it asks for confirmation (`always`, on the
 * channels in `confirmingChannels` when it may mutate, or `no`), and its description.
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
    const mutability = mutabilityOf(definition);
    const mutates = mutability === 'depends_on_arguments' ? 'depends on arguments' : mutability === 'mutating' ? 'yes' : 'no';
    rows.push([
      definition.name,
      definition.scopes.length === 0 ? '(none)' : definition.scopes.join(', '),
      mutates,
      definition.requiresConfirmation ? 'always' : mutability === 'read_only' ? 'no' : onChannels,
      definition.description,
    ]);
  }
  return `${style.bold(`${definitions.length} tools in the demo registry`)}\n\n${formatTable(rows, { header: style.bold })}`;
}
