import { ToolContext, ToolResult, Type, tool, type ToolInvocation } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolAlreadyRegisteredError } from '../registry/tool-already-registered-error.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { ToolScanner } from './tool-scanner.js';

class ItemService {
  readonly prefix = 'item';
  private readonly deleted: number[] = [];

  @tool({
    name: 'list_items',
    description: 'List items',
    input: Type.Object({ page: Type.Optional(Type.Integer({ default: 1 })), limit: Type.Optional(Type.Integer()) }),
  })
  listItems({ page = 1, limit = 20 }: { page?: number; limit?: number }) {
    return { page, limit, prefix: this.prefix };
  }

  @tool({ name: 'create_item', description: 'Create an item', input: Type.Object({ description: Type.String() }) })
  createItem({ description }: { description: string }) {
    return ToolResult.success({ description }, 'Created');
  }

  @tool({
    name: 'delete_item',
    description: 'Delete',
    input: Type.Object({ id: Type.Integer() }),
    mutating: true,
    timeoutMs: 5000,
    scopes: ['items:write'],
  })
  deleteItem({ id }: { id: number }) {
    this.deleted.push(id);
    return this.deleted;
  }

  @tool({ name: 'whoami', description: 'Caller channel' })
  whoami(_args: Record<string, unknown>, { context }: ToolInvocation) {
    return context.channel;
  }

  helper() {
    return 'not a tool';
  }
}

class EmptyService {
  run() {
    return 1;
  }
}

describe('ToolScanner', () => {
  describe('scan', () => {
    it('registers every decorated method and returns the count', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      expect(new ToolScanner(registry).scan(new ItemService())).toBe(4);
      expect(registry.getToolDefinitions().map((definition) => definition.name)).toEqual([
        'list_items',
        'create_item',
        'delete_item',
        'whoami',
      ]);
      expect(registry.has('helper')).toBe(false);
    });

    it('returns 0 for an object without tools and accumulates across scans', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const scanner = new ToolScanner(registry);
      expect(scanner.scan(new EmptyService())).toBe(0);
      class Other {
        @tool({ name: 'other', description: 'Other' })
        other() {
          return 'other';
        }
      }
      expect(scanner.scan(new Other())).toBe(1);
      expect(scanner.scan(new ItemService())).toBe(4);
      expect(registry.getToolDefinitions()).toHaveLength(5);
    });

    it('binds handlers to the scanned instance and passes args by name', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      new ToolScanner(registry).scan(new ItemService());
      expect((await registry.call('list_items', { page: 2, limit: 10 })).data).toEqual({ page: 2, limit: 10, prefix: 'item' });
      expect((await registry.call('list_items', {})).data).toEqual({ page: 1, limit: 20, prefix: 'item' });
      expect((await registry.call('delete_item', { id: 4 })).data).toEqual([4]);
      expect((await registry.call('delete_item', { id: 5 })).data).toEqual([4, 5]);
      expect((await registry.call('whoami', {})).data).toBe('cli');
    });

    it('fails validation naming a missing required parameter', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      new ToolScanner(registry).scan(new ItemService());
      const result = await registry.call('create_item', {});
      expect(result.error).toBe('Missing required field: description');
    });

    it('keeps mutating, timeoutMs and scopes declared on the decorator', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      new ToolScanner(registry).scan(new ItemService());
      expect(registry.getDefinition('delete_item')).toMatchObject({ mutating: true, timeoutMs: 5000, scopes: ['items:write'] });
    });

    it('registers nothing and throws when one of the names is already taken', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const scanner = new ToolScanner(registry);
      class Clash {
        @tool({ name: 'fresh', description: 'x' })
        fresh() {
          return 1;
        }

        @tool({ name: 'whoami', description: 'x' })
        whoami() {
          return 1;
        }
      }
      scanner.scan(new ItemService());
      expect(() => scanner.scan(new Clash())).toThrow(ToolAlreadyRegisteredError);
      expect(registry.has('fresh')).toBe(false);
    });
  });
});
