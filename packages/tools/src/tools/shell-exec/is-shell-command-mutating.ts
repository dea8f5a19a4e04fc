import { SHELL_READ_ONLY_COMMANDS } from './shell-command-lists.js';
import { tokenizeShellCommand } from './tokenize-shell-command.js';

const READ_ONLY = new Set(SHELL_READ_ONLY_COMMANDS);

/**
 * Whether a `shell_exec` call changes state, from its arguments: false only when `command` parses
 * and its program is on {@link SHELL_READ_ONLY_COMMANDS}; true for anything else, including a
 * missing or unparsable command (it will be refused, but the safe answer costs nothing).
 *
 * @example isShellCommandMutating({ command: 'ls -la' }) // false
 */
export function isShellCommandMutating(args: Readonly<Record<string, unknown>>): boolean {
  const command = args['command'];
  if (typeof command !== 'string') return true;
  try {
    const program = tokenizeShellCommand(command)[0];
    return program === undefined || !READ_ONLY.has(program);
  } catch {
    return true;
  }
}
