import { readDeclaredTools, type ToolRegistry } from '@milpa/core';
import { ToolAlreadyRegisteredError } from '../registry/tool-already-registered-error.js';

/**
 * Registers every `@tool`-decorated method of an object on a registry, each bound to that object.
 *
 * @example
 * const count = new ToolScanner(registry).scan(new NoteTools()); // 3
 */
export class ToolScanner {
  readonly #registry: ToolRegistry;

  constructor(registry: ToolRegistry) {
    this.#registry = registry;
  }

  /**
   * Registers the decorated methods of `instance` and returns how many were registered. A second
   * scan of another object accumulates. All or nothing: when any name is already registered the
   * scan throws `ToolAlreadyRegisteredError` before registering anything.
   */
  scan(instance: object): number {
    const definitions = readDeclaredTools(instance);
    const duplicate = definitions.find((definition) => this.#registry.has(definition.name));
    if (duplicate !== undefined) throw new ToolAlreadyRegisteredError(duplicate.name);
    for (const definition of definitions) this.#registry.register(definition);
    return definitions.length;
  }
}
