import { Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { formatToolList } from './format-tool-list.js';
import { createTerminalStyle } from './terminal-style.js';

const plain = createTerminalStyle(false);
const input = Type.Object({ command: Type.String() });

function rowOf(output: string, name: string): string[] {
  const line = output.split('\n').find((text) => text.trimStart().startsWith(`${name} `));
  if (line === undefined) throw new Error(`no row for ${name}`);
  return line.trim().split(/\s{2,}/);
}

describe('formatToolList', () => {
  it('shows yes, no or depends on arguments as the mutating column, and where each tool confirms', () => {
    const output = formatToolList(
      [
        defineTool({ name: 'read_file', description: 'Read', input, handler: () => '' }),
        defineTool({ name: 'delete_file', description: 'Delete', input, mutating: true, handler: () => '' }),
        defineTool({ name: 'shell_exec', description: 'Run', input, mutating: ({ command }) => command !== 'ls', handler: () => '' }),
      ],
      plain,
      ['telegram'],
    );
    expect(rowOf(output, 'read_file').slice(2, 4)).toEqual(['no', 'no']);
    expect(rowOf(output, 'delete_file').slice(2, 4)).toEqual(['yes', 'on telegram']);
    expect(rowOf(output, 'shell_exec').slice(2, 4)).toEqual(['depends on arguments', 'on telegram']);
  });
});
