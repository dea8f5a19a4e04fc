import type { ToolsForResult } from '@milpa/tool-runtime/routing';
import { describe, expect, it } from 'vitest';
import { formatTurnOffers } from './format-turn-offers.js';

function turn(fields: Partial<ToolsForResult>): ToolsForResult {
  return { tools: [], names: [], profile: 'full', budget: 8, ranked: true, pinned: [], excluded: [], estimatedTokens: 0, ...fields };
}

describe('formatTurnOffers', () => {
  it('lays offers side by side: profile, descriptions, budget, tokens, each callable tool, then how many were left out', () => {
    const big = turn({ names: ['a', 'b', 'c'], pinned: ['c'], excluded: [], estimatedTokens: 1234 });
    const small = turn({ names: ['c'], pinned: ['c'], excluded: ['a', 'b'], profile: 'minimal', budget: 1, estimatedTokens: 80 });
    expect(
      formatTurnOffers(
        [
          { label: 'big', turn: big },
          { label: 'small', turn: small },
        ],
        ['b', 'x', 'a', 'c'],
        { indent: 0 },
      ),
    ).toBe(
      [
        '                  big       small',
        'profile           full      minimal',
        'descriptions      whole     first line',
        'budget            8 tools   1 tools',
        'estimated tokens  1,234     80',
        'b                 ✓         —',
        'a                 ✓         —',
        'c                 ✓ pinned  ✓ pinned',
        'left out          0         2',
        '',
      ].join('\n'),
    );
  });

  it('gives no row to a tool the caller may not call, and shows an unlimited budget as such', () => {
    const output = formatTurnOffers([{ label: 'all', turn: turn({ names: ['a'], budget: -1, ranked: false }) }], ['a', 'hidden']);
    expect(output).toContain('budget            unlimited');
    expect(output).not.toContain('hidden');
  });
});
