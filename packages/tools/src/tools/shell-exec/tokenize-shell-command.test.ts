import { describe, expect, it } from 'vitest';
import { ToolError } from '../../lifecycle/tool-error.js';
import { MAX_SHELL_ARGUMENTS, MAX_SHELL_COMMAND_LENGTH, SHELL_METACHARACTERS, tokenizeShellCommand } from './tokenize-shell-command.js';

function codeOf(command: string): string {
  try {
    tokenizeShellCommand(command);
  } catch (error) {
    if (error instanceof ToolError) return error.code;
    throw error;
  }
  return 'OK';
}

describe('tokenizeShellCommand', () => {
  describe('splitting', () => {
    it('splits on spaces and tabs, ignoring runs of them', () => {
      expect(tokenizeShellCommand('  ls   -la\tsrc  ')).toEqual(['ls', '-la', 'src']);
    });

    it('keeps spaces inside single or double quotes and drops the quotes', () => {
      expect(tokenizeShellCommand(`ls "my folder" 'other  one'`)).toEqual(['ls', 'my folder', 'other  one']);
    });

    it('joins a quoted part to the text around it', () => {
      expect(tokenizeShellCommand('grep --regexp="a b"c x.txt')).toEqual(['grep', '--regexp=a bc', 'x.txt']);
    });

    it('keeps the other quote character literally inside quotes', () => {
      expect(tokenizeShellCommand(`echo "it's" 'say "hi"'`)).toEqual(['echo', "it's", 'say "hi"']);
    });

    it('gives an empty argument for empty quotes', () => {
      expect(tokenizeShellCommand(`echo ''`)).toEqual(['echo', '']);
    });
  });

  describe('refusals', () => {
    it.each(SHELL_METACHARACTERS.map((character) => [JSON.stringify(character), character]))(
      'refuses the metacharacter %s with SHELL_METACHARACTER, bare and inside quotes',
      (_label, character) => {
        expect(codeOf(`ls a${character}b`)).toBe('SHELL_METACHARACTER');
        expect(codeOf(`ls "a${character}b"`)).toBe('SHELL_METACHARACTER');
        expect(codeOf(`ls 'a${character}b'`)).toBe('SHELL_METACHARACTER');
      },
    );

    it.each([
      ['command substitution', 'ls $(whoami)'],
      ['backticks', 'ls `whoami`'],
      ['a quoted substitution', "ls '$(whoami)'"],
      ['chaining', 'ls; rm -rf x'],
      ['a pipe', 'ls | wc -l'],
      ['redirection', 'ls > out.txt'],
      ['a background job', 'ls &'],
      ['a variable', 'ls $HOME'],
      ['a glob', 'ls *.ts'],
      ['a home path', 'ls ~/x'],
      ['a newline', 'ls\nrm x'],
    ])('refuses %s', (_label, command) => {
      expect(codeOf(command)).toBe('SHELL_METACHARACTER');
    });

    it('names the character and its position in the message', () => {
      expect(() => tokenizeShellCommand('ls a|b')).toThrow(/metacharacter '\|' at position 4.*without a shell/s);
    });

    it('refuses control characters with CONTROL_CHARACTER', () => {
      expect(codeOf('ls a\u0000b')).toBe('CONTROL_CHARACTER');
      expect(codeOf('ls a\u001b[31mb')).toBe('CONTROL_CHARACTER');
      expect(codeOf('ls a\u007fb')).toBe('CONTROL_CHARACTER');
    });

    it('refuses an unclosed quote with UNBALANCED_QUOTE', () => {
      expect(codeOf('ls "src')).toBe('UNBALANCED_QUOTE');
      expect(codeOf("ls 'src")).toBe('UNBALANCED_QUOTE');
    });

    it('refuses an empty or blank command with EMPTY_COMMAND', () => {
      expect(codeOf('')).toBe('EMPTY_COMMAND');
      expect(codeOf('  \t ')).toBe('EMPTY_COMMAND');
    });

    it('refuses a command over the length limit with COMMAND_TOO_LONG', () => {
      expect(codeOf(`ls ${'a'.repeat(MAX_SHELL_COMMAND_LENGTH)}`)).toBe('COMMAND_TOO_LONG');
    });

    it('refuses more arguments than the limit with TOO_MANY_ARGUMENTS', () => {
      expect(codeOf(`ls ${'a '.repeat(MAX_SHELL_ARGUMENTS)}`)).toBe('OK');
      expect(codeOf(`ls ${'a '.repeat(MAX_SHELL_ARGUMENTS + 1)}`)).toBe('TOO_MANY_ARGUMENTS');
    });
  });
});
