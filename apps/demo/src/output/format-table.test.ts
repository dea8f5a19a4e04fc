import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table.js';

describe('formatTable', () => {
  it('aligns columns two spaces apart and leaves the last column unpadded', () => {
    expect(
      formatTable([
        ['tool', 'scopes', 'description'],
        ['list_notes', 'notes:read', 'List notes.'],
        ['x', 'y', 'z'],
      ]),
    ).toBe('  tool        scopes      description\n' + '  list_notes  notes:read  List notes.\n' + '  x           y           z\n');
  });

  it('styles the header line after padding, so widths ignore the style', () => {
    const output = formatTable(
      [
        ['a', 'b'],
        ['long', 'c'],
      ],
      { indent: 0, header: (line) => `<${line}>` },
    );
    expect(output).toBe('<a     b>\nlong  c\n');
  });
});
