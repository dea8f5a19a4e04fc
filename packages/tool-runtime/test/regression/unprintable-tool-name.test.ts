import { ToolContext, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Found by test/properties/call-hostile-input.test.ts: a tool name that cannot be turned into a
// string (String() throws) made call() reject, on the unknown-tool path and on the invalid-context path.
const unprintableNames: [string, unknown][] = [
  ['a null-prototype object', Object.create(null)],
  [
    'an object whose toString throws',
    {
      toString(): string {
        throw new Error('no string for you');
      },
    },
  ],
];

describe('ToolRegistry', () => {
  describe('call (regression: unprintable tool name)', () => {
    it.each(unprintableNames)('resolves to TOOL_NOT_FOUND when the name is %s', async (_label, name) => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 'echo', description: 'Echo', handler: () => 'ran' }));
      const result = await registry.call(name as string, {}, ToolContext.cli());
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('TOOL_NOT_FOUND');
      expect(typeof result.meta['tool']).toBe('string');
    });

    it.each(unprintableNames)('resolves to VALIDATION_ERROR when the name is %s and the context is invalid', async (_label, name) => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const result = await registry.call(name as string, {}, { channel: 42 } as never);
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(typeof result.meta['tool']).toBe('string');
    });
  });
});
