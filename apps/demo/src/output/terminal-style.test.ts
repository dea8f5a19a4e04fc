import { describe, expect, it } from 'vitest';
import { createTerminalStyle, shouldUseColor } from './terminal-style.js';

describe('shouldUseColor', () => {
  it('returns true when the stream is a terminal and NO_COLOR is unset', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
  });

  it('returns false when the stream is not a terminal', () => {
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
  });

  it('returns false when NO_COLOR is set to a non-empty value, even on a terminal', () => {
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
  });

  it('ignores an empty NO_COLOR, as the convention says', () => {
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
  });
});

describe('createTerminalStyle', () => {
  it('returns text unchanged when colour is off', () => {
    const style = createTerminalStyle(false);
    expect([style.bold('a'), style.dim('b'), style.accent('c'), style.good('d'), style.bad('e')]).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('wraps text in ANSI codes that close what they open when colour is on', () => {
    const style = createTerminalStyle(true);
    expect(style.bold('a')).toBe('\u001b[1ma\u001b[22m');
    expect(style.bad('e')).toBe('\u001b[31me\u001b[39m');
  });
});
