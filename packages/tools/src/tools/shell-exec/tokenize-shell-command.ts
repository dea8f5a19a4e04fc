import { ToolError } from '../../lifecycle/tool-error.js';

/** The longest command `shell_exec` accepts, in characters. */
export const MAX_SHELL_COMMAND_LENGTH = 4096;

/** The most arguments (after the program) a command may have. */
export const MAX_SHELL_ARGUMENTS = 64;

/**
 * Characters a shell would interpret, refused anywhere in a command (inside quotes too): there is
 * no shell to interpret them, and escaping them instead would only hide a mistaken expectation.
 */
export const SHELL_METACHARACTERS: readonly string[] = Object.freeze([
  ';',
  '&',
  '|',
  '$',
  '`',
  '>',
  '<',
  '(',
  ')',
  '{',
  '}',
  '*',
  '?',
  '[',
  ']',
  '~',
  '!',
  '#',
  '\\',
  '\n',
  '\r',
]);

const METACHARACTERS = new Set(SHELL_METACHARACTERS);
// C0 and C1 controls and DEL, except tab (a separator); newline and carriage return are refused above.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function describe(character: string): string {
  if (character === '\n') return 'a newline';
  if (character === '\r') return 'a carriage return';
  return `'${character}'`;
}

/**
 * Splits a command into its program and arguments without a shell. Arguments are separated by
 * spaces or tabs; a part in single or double quotes keeps its spaces (`ls "my folder"`), and quotes
 * may cover part of an argument (`--name="a b"`); the quotes themselves are dropped. Nothing else is
 * special: there are no escapes, variables, globs or substitutions, and every shell metacharacter
 * ({@link SHELL_METACHARACTERS}), control character, or unbalanced quote is refused with a
 * `ToolError` (`SHELL_METACHARACTER`, `CONTROL_CHARACTER`, `UNBALANCED_QUOTE`, `EMPTY_COMMAND`,
 * `COMMAND_TOO_LONG`, `TOO_MANY_ARGUMENTS`).
 *
 * @example tokenizeShellCommand('ls -la "my folder"') // ['ls', '-la', 'my folder']
 */
export function tokenizeShellCommand(command: string): string[] {
  if (typeof command !== 'string' || command.trim() === '') {
    throw new ToolError('EMPTY_COMMAND', 'command must be a program and its arguments, e.g. "ls -la src".');
  }
  if (command.length > MAX_SHELL_COMMAND_LENGTH) {
    throw new ToolError('COMMAND_TOO_LONG', `command is ${command.length} characters; at most ${MAX_SHELL_COMMAND_LENGTH} are accepted.`);
  }
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] as string;
    if (METACHARACTERS.has(character)) {
      throw new ToolError(
        'SHELL_METACHARACTER',
        `The command contains the shell metacharacter ${describe(character)} at position ${index}. shell_exec runs one program ` +
          'directly, without a shell: pipes, redirection, variables, globs, command substitution and chaining are not available, ' +
          'and these characters are refused, not escaped (inside quotes too). Run one command at a time with plain arguments.',
        { details: { character, position: index } },
      );
    }
    if (CONTROL.test(character)) {
      throw new ToolError(
        'CONTROL_CHARACTER',
        `The command contains the control character U+${character.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} ` +
          `at position ${index}.`,
        {
          details: { position: index },
        },
      );
    }
  }

  const tokens: string[] = [];
  let current: string | null = null;
  let quote: '"' | "'" | null = null;
  let quoteStart = 0;
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] as string;
    if (quote !== null) {
      if (character === quote) quote = null;
      else current = (current ?? '') + character;
    } else if (character === '"' || character === "'") {
      quote = character;
      quoteStart = index;
      current ??= '';
    } else if (character === ' ' || character === '\t') {
      if (current !== null) tokens.push(current);
      current = null;
    } else {
      current = (current ?? '') + character;
    }
  }
  if (quote !== null) {
    throw new ToolError('UNBALANCED_QUOTE', `The quote ${quote} at position ${quoteStart} is never closed.`, {
      details: { position: quoteStart },
    });
  }
  if (current !== null) tokens.push(current);
  if (tokens.length - 1 > MAX_SHELL_ARGUMENTS) {
    throw new ToolError(
      'TOO_MANY_ARGUMENTS',
      `The command has ${tokens.length - 1} arguments; at most ${MAX_SHELL_ARGUMENTS} are accepted.`,
    );
  }
  return tokens;
}
