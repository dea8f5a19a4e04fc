import { UNLIMITED, profileDescriptionStyle, type ToolsForResult } from '@milpa/tool-runtime/routing';
import { formatTable, type TableOptions } from './format-table.js';

/** One column of {@link formatTurnOffers}: a heading (e.g. `openai / gpt-4o-mini`) and what `registry.toolsFor()` answered. */
export interface TurnOffer {
  /** The column heading. */
  readonly label: string;
  /** What `registry.toolsFor()` answered for that provider and model. */
  readonly turn: ToolsForResult;
}

/**
 * Lays out one or more `toolsFor()` answers side by side: profile, description style, budget and
 * estimated tokens, then one row per tool the caller may call (`✓`, `✓ pinned`, or `—` when left
 * out), then how many were left out. Tools appear in `order` (e.g. registration order); a tool in
 * no offer and in no `excluded` list — one the caller may not call — gets no row.
 *
 * @example
 * formatTurnOffers([{ label: 'openai / gpt-4o-mini', turn }], names);
 * // '                  openai / gpt-4o-mini\n  profile           full\n…'
 */
export function formatTurnOffers(offers: readonly TurnOffer[], order: readonly string[], options: TableOptions = {}): string {
  const callable = new Set(offers.flatMap(({ turn }) => [...turn.names, ...turn.excluded]));
  const row = (label: string, cell: (turn: ToolsForResult) => string): string[] => [label, ...offers.map(({ turn }) => cell(turn))];
  const rows: string[][] = [
    ['', ...offers.map(({ label }) => label)],
    row('profile', (turn) => turn.profile),
    row('descriptions', (turn) => (profileDescriptionStyle(turn.profile) === 'first-line' ? 'first line' : 'whole')),
    row('budget', (turn) => (turn.budget === UNLIMITED ? 'unlimited' : `${turn.budget} tools`)),
    row('estimated tokens', (turn) => turn.estimatedTokens.toLocaleString('en-US')),
    ...order
      .filter((name) => callable.has(name))
      .map((name) => row(name, (turn) => (!turn.names.includes(name) ? '—' : turn.pinned.includes(name) ? '✓ pinned' : '✓'))),
    row('left out', (turn) => String(turn.excluded.length)),
  ];
  return formatTable(rows, options);
}
