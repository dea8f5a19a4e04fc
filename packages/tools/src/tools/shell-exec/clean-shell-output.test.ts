import { describe, expect, it } from 'vitest';
import { cleanShellOutput } from './clean-shell-output.js';

describe('cleanShellOutput', () => {
  it('removes colour sequences', () => {
    expect(cleanShellOutput('\u001b[0m\u001b[01;34msrc\u001b[0m  a.txt')).toBe('src  a.txt');
  });

  it('removes cursor moves, OSC hyperlinks and titles', () => {
    expect(cleanShellOutput('\u001b[2K\u001b[1Gdone')).toBe('done');
    expect(cleanShellOutput('\u001b]8;;file:///etc\u0007link\u001b]8;;\u0007')).toBe('link');
    expect(cleanShellOutput('\u001b]0;title\u001b\\text')).toBe('text');
    expect(cleanShellOutput('\u009b31mred')).toBe('red');
  });

  it('keeps newlines and tabs, turns CRLF into LF and drops other control characters', () => {
    expect(cleanShellOutput('a\tb\r\nc\u0000d\u0007e\rf\u0008\n')).toBe('a\tb\ncdef\n');
  });

  it('drops bidirectional override characters', () => {
    expect(cleanShellOutput('safe\u202eexe.txt')).toBe('safeexe.txt');
  });

  it('leaves ordinary text and other scripts alone', () => {
    expect(cleanShellOutput('héllo — 世界\n')).toBe('héllo — 世界\n');
  });
});
