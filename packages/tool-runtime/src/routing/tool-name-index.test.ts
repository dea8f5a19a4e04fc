import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolNameIndex } from './tool-name-index.js';
import { ToolNameMentions, canonicalToolName } from './tool-name-mentions.js';

function named(names: readonly string[], message: string): string[] {
  const canonical = names.map(canonicalToolName);
  return new ToolNameIndex(canonical)
    .namedBy(ToolNameMentions.fromMessage(message))
    .map((position) => names[position] as string)
    .sort();
}

describe('ToolNameIndex', () => {
  describe('namedBy', () => {
    const names = ['delete_note', 'delete_notes', 'shell_exec', 'ls', 'also_list', 'ping', ''];

    it('returns the names a plain word equals, and never the empty name', () => {
      expect(named(names, 'ping the server')).toEqual(['ping']);
    });

    it('returns the names a plain word starts, as their whole first part', () => {
      expect(named(names, 'open a shell')).toEqual(['shell_exec']);
      expect(named(names, 'delete a note')).toEqual(['delete_note', 'delete_notes']);
      expect(named(names, 'shel exec')).toEqual([]);
    });

    it('returns the names containing an identifier, two-letter class-style stems too', () => {
      expect(named(names, 'use delete_note')).toEqual(['delete_note', 'delete_notes']);
      expect(named(names, 'use LsTool')).toEqual(['also_list', 'ls']);
    });

    it('returns the names an identifier contains as whole segments', () => {
      expect(named(names, 'run shell_exec_v2')).toEqual(['shell_exec']);
      expect(named(['exec', 'shell_e'], 'run shell_exec_v2')).toEqual(['exec']);
    });

    it('answers as ToolNameMentions.names does for every name', () => {
      const segment = fc.constantFrom('note', 'notes', 'delete', 'shell', 'exec', 'ls', 'a', 'v2', 'Tool', 'HTTP', 'the');
      const name = fc
        .array(segment, { minLength: 1, maxLength: 3 })
        .chain((parts) => fc.constantFrom('_', '.', '-', '').map((separator) => parts.join(separator)));
      const message = fc.array(fc.oneof(segment, name), { maxLength: 8 }).map((parts) => parts.join(' '));
      fc.assert(
        fc.property(fc.uniqueArray(name, { maxLength: 12 }), message, (list, text) => {
          const mentions = ToolNameMentions.fromMessage(text);

          expect(named(list, text)).toEqual(list.filter((entry) => mentions.names(entry)).sort());
        }),
      );
    });
  });
});
