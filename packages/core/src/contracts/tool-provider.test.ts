import { describe, expect, it } from 'vitest';
import { defineTool } from '../tools/define-tool.js';
import type { AnyToolDefinition } from '../tools/tool-definition.js';
import type { ToolProvider } from './tool-provider.js';
import type { ToolRegistry } from './tool-registry.js';

describe('ToolProvider', () => {
  it('registers its tools on any registry that meets the core contract', async () => {
    const registered = new Map<string, AnyToolDefinition>();
    const registry: ToolRegistry = {
      register: (definition) => {
        registered.set(definition.name, definition);
      },
      has: (name) => registered.has(name),
    };
    const notesPlugin: ToolProvider = {
      async registerTools(target) {
        target.register(defineTool({ name: 'list_notes', description: 'List saved notes', handler: () => [] }));
      },
      getPromptSections: () => ['Use list_notes to see notes.'],
    };

    await notesPlugin.registerTools(registry);

    expect(registry.has('list_notes')).toBe(true);
    expect(notesPlugin.getPromptSections?.()).toEqual(['Use list_notes to see notes.']);
  });
});
