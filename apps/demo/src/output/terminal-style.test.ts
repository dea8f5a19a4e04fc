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

  it('returns false on a dumb terminal', () => {
    expect(shouldUseColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('returns true when FORCE_COLOR asks for colour, even on a pipe and with NO_COLOR set', () => {
    for (const force of ['', '1', '3', 'true']) expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: force, NO_COLOR: '1' })).toBe(true);
  });

  it('returns false when FORCE_COLOR is 0 or false, even on a terminal', () => {
    for (const force of ['0', 'false']) expect(shouldUseColor({ isTTY: true }, { FORCE_COLOR: force })).toBe(false);
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
    expect(style.dim('b')).toBe('\u001b[2mb\u001b[22m');
    expect(style.accent('c')).toBe('\u001b[36mc\u001b[39m');
    expect(style.good('d')).toBe('\u001b[32md\u001b[39m');
    expect(style.bad('e')).toBe('\u001b[31me\u001b[39m');
  });
});
