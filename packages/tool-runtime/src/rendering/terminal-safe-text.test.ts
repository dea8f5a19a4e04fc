import { describe, expect, it } from 'vitest';
import { toTerminalSafeText } from './terminal-safe-text.js';

describe('toTerminalSafeText', () => {
  it('keeps tabs, newlines and ordinary unicode when the text is harmless', () => {
    expect(toTerminalSafeText('a\tb\nc ñ €')).toBe('a\tb\nc ñ €');
  });

  it('turns CRLF into LF and escapes a lone carriage return when present', () => {
    expect(toTerminalSafeText('one\r\ntwo\rthree')).toBe('one\ntwo\\x0dthree');
  });

  it('escapes ESC, BEL, DEL and C1 controls when present', () => {
    expect(toTerminalSafeText('\u001b[31m\u0007\u007f\u009b')).toBe('\\x1b[31m\\x07\\x7f\\x9b');
  });
});
