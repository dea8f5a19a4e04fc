import { describe, expect, it } from 'vitest';
import { suggestName } from './suggest-name.js';

const TOOLS = ['list_notes', 'get_note', 'create_note', 'delete_note', 'lookup_crop'];

describe('suggestName', () => {
  it('suggests the tool a typo was meant to be', () => {
    expect(suggestName('list_note', TOOLS)).toBe('list_notes');
    expect(suggestName('delte_note', TOOLS)).toBe('delete_note');
    expect(suggestName('lookup_corp', TOOLS)).toBe('lookup_crop');
  });

  it('suggests a tool containing the input, ignoring case', () => {
    expect(suggestName('LOOKUP', TOOLS)).toBe('lookup_crop');
  });

  it('returns null when nothing is close, or for empty input', () => {
    expect(suggestName('frobnicate', TOOLS)).toBeNull();
    expect(suggestName('', TOOLS)).toBeNull();
  });
});
