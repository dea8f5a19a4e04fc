import { Type, defineTool } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { toMcpTool } from './to-mcp-tool.js';

const input = Type.Object({ command: Type.String() });

describe('toMcpTool', () => {
  describe('annotations', () => {
    it('announces a read-only tool as readOnlyHint and a mutating one as destructive', () => {
      const read = defineTool({ name: 'read', description: 'Read', input, handler: () => null });
      const write = defineTool({ name: 'write', description: 'Write', input, mutating: true, handler: () => null });

      expect(toMcpTool(read).annotations).toEqual({ readOnlyHint: true });
      expect(toMcpTool(write).annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    });

    it('announces a tool whose mutability depends on its arguments as destructive, without asking it', () => {
      const mutating = vi.fn(() => false);
      const shell = defineTool({ name: 'shell_exec', title: 'Shell', description: 'Run a command', input, mutating, handler: () => null });

      expect(toMcpTool(shell).annotations).toEqual({ readOnlyHint: false, destructiveHint: true, title: 'Shell' });
      expect(mutating).not.toHaveBeenCalled();
    });
  });
});
