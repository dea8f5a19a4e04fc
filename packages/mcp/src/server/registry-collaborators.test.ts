import type { GovernedToolRegistry } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it } from 'vitest';
import { collaboratorsOf } from './registry-collaborators.js';

const SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const;

describe('collaboratorsOf', () => {
  it("lends a ToolRegistry's confirmation store and schema validator", () => {
    const registry = new ToolRegistry();
    const collaborators = collaboratorsOf(registry);
    expect(collaborators.confirmationStore).toBe(registry.getConfirmationStore());
    expect(collaborators.outputValidator).toBe(registry.getSchemaValidator());
  });

  it('gives no confirmation store and a working default validator for a registry that lends none', () => {
    const bare: GovernedToolRegistry = {
      register: () => undefined,
      has: () => false,
      call: () => Promise.reject(new Error('not called')),
      resume: () => Promise.reject(new Error('not called')),
      listToolsFor: () => Promise.resolve([]),
      getDefinition: () => null,
      inspect: () => null,
    };
    const collaborators = collaboratorsOf(bare);
    expect(collaborators.confirmationStore).toBeNull();
    expect(collaborators.outputValidator.compile(SCHEMA)({ n: 1 }).errors).toEqual([]);
    expect(collaborators.outputValidator.compile(SCHEMA)({ n: 'one' }).errors).not.toEqual([]);
  });
});
