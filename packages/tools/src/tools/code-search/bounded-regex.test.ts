import { describe, expect, it } from 'vitest';
import { ToolError } from '../../lifecycle/tool-error.js';
import { BoundedRegex, type BoundedRegexLimits } from './bounded-regex.js';

const LIMITS: BoundedRegexLimits = { maxPatternLength: 50, maxLineLength: 20, timeoutMs: 100 };

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof ToolError ? error.code : `not a ToolError: ${String(error)}`;
  }
}

describe('BoundedRegex', () => {
  describe('compile', () => {
    it('returns INVALID_REGEX when the pattern does not parse', () => {
      expect(codeOf(() => BoundedRegex.compile('a(?<name', LIMITS))).toBe('INVALID_REGEX');
    });

    it('returns PATTERN_TOO_LONG above maxPatternLength', () => {
      expect(codeOf(() => BoundedRegex.compile('a'.repeat(51), LIMITS))).toBe('PATTERN_TOO_LONG');
      expect(codeOf(() => BoundedRegex.compile('a'.repeat(50), LIMITS))).toBeNull();
    });
  });

  describe('matchFiles', () => {
    it('returns the matching line indexes and columns of each file', () => {
      const regex = BoundedRegex.compile('b+c', LIMITS);
      expect(regex.matchFiles([['abbc', 'xyz', 'bc'], [], ['nothing']])).toEqual([
        [
          { index: 0, column: 1 },
          { index: 2, column: 0 },
        ],
        [],
        [],
      ]);
    });

    it('matches lookarounds and backreferences, which JavaScript supports', () => {
      const regex = BoundedRegex.compile('(?<=\\$)(\\w)\\1', LIMITS);
      expect(regex.matchFiles([['cost $aa', 'cost aa']])).toEqual([[{ index: 0, column: 6 }]]);
    });

    it('matches only the first maxLineLength characters of a line', () => {
      const regex = BoundedRegex.compile('needle', LIMITS);
      expect(regex.matchFiles([[`${'x'.repeat(14)}needle`, `${'x'.repeat(15)}needle`]])).toEqual([[{ index: 0, column: 14 }]]);
    });

    it('throws REGEX_TIMEOUT when a match backtracks catastrophically', () => {
      const regex = BoundedRegex.compile('^(a|aa)+$', { ...LIMITS, maxLineLength: 4096 });
      expect(codeOf(() => regex.matchFiles([[`${'a'.repeat(60)}b`]]))).toBe('REGEX_TIMEOUT');
    });

    it('matches again after a call timed out', () => {
      const slow = BoundedRegex.compile('^(a|aa)+$', { ...LIMITS, maxLineLength: 4096 });
      expect(codeOf(() => slow.matchFiles([[`${'a'.repeat(60)}b`]]))).toBe('REGEX_TIMEOUT');
      expect(BoundedRegex.compile('b$', LIMITS).matchFiles([['ab']])).toEqual([[{ index: 0, column: 1 }]]);
    });
  });
});
