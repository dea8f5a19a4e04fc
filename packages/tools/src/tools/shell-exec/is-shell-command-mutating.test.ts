import { describe, expect, it } from 'vitest';
import { isShellCommandMutating } from './is-shell-command-mutating.js';
import { SHELL_READ_ONLY_COMMANDS } from './shell-command-lists.js';

describe('isShellCommandMutating', () => {
  it.each(SHELL_READ_ONLY_COMMANDS.map((program) => [program]))('returns false for the read-only program %s', (program) => {
    expect(isShellCommandMutating({ command: `${program} --help` })).toBe(false);
  });

  it.each([['touch x'], ['mkdir build'], ['sleep 1'], ['rm -rf x'], ['LS']])('returns true for %s', (command) => {
    expect(isShellCommandMutating({ command })).toBe(true);
  });

  it('returns true when the command cannot be parsed or is missing', () => {
    expect(isShellCommandMutating({ command: 'ls; rm x' })).toBe(true);
    expect(isShellCommandMutating({ command: 'ls "open' })).toBe(true);
    expect(isShellCommandMutating({ command: '' })).toBe(true);
    expect(isShellCommandMutating({ command: 42 })).toBe(true);
    expect(isShellCommandMutating({})).toBe(true);
  });
});
