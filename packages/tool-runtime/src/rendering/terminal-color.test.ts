import { describe, expect, it } from 'vitest';
import { paintTerminalText, shouldUseColor } from './terminal-color.js';

describe('shouldUseColor', () => {
  it('returns true when the stream is a terminal and nothing in the environment objects', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
  });

  it('returns false when the stream is not a terminal or is unknown', () => {
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
    expect(shouldUseColor(undefined, {})).toBe(false);
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

  it('returns true when FORCE_COLOR asks for colour, whatever the stream and NO_COLOR say', () => {
    for (const force of ['', '1', '2', '3', 'true']) {
      expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: force, NO_COLOR: '1' })).toBe(true);
    }
  });

  it('returns false when FORCE_COLOR turns colour off, even on a terminal', () => {
    for (const force of ['0', 'false']) expect(shouldUseColor({ isTTY: true }, { FORCE_COLOR: force })).toBe(false);
  });
});

describe('paintTerminalText', () => {
  it('wraps text in codes that close only what they opened', () => {
    expect(paintTerminalText('info', 'ok')).toBe('\u001b[32mok\u001b[39m');
    expect(paintTerminalText('comment', 'aside')).toBe('\u001b[33maside\u001b[39m');
    expect(paintTerminalText('error', 'no')).toBe('\u001b[31mno\u001b[39m');
    expect(paintTerminalText('warning', 'careful')).toBe('\u001b[1m\u001b[33mcareful\u001b[39m\u001b[22m');
    expect(paintTerminalText('danger', 'stop')).toBe('\u001b[1m\u001b[31mstop\u001b[39m\u001b[22m');
  });

  it('colours even when standard output is not a terminal, because the caller already decided', () => {
    const stdout = process.stdout as { isTTY?: boolean };
    const before = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
    try {
      expect(stdout.isTTY).toBe(false);
      expect(paintTerminalText('error', 'no')).toBe('\u001b[31mno\u001b[39m');
    } finally {
      if (before === undefined) delete stdout.isTTY;
      else Object.defineProperty(process.stdout, 'isTTY', before);
    }
  });
});
