import type { ConfirmationStore, GovernedToolRegistry } from '@milpa/core';
import { SchemaValidator } from '@milpa/tool-runtime';
import type { OutputValidator } from '../results/to-call-tool-result.js';

/**
 * What the MCP server borrows from a registry beyond core's `GovernedToolRegistry`, when the
 * registry has it: a `@milpa/tool-runtime` `ToolRegistry` lends its confirmation store (so a
 * declined confirmation form revokes its token at once) and its schema validator (so output is
 * checked with the same formats as arguments).
 */
export interface RegistryCollaborators {
  /** The registry's confirmation store, or null when it has none to lend (a declined token then expires on its own). */
  readonly confirmationStore: ConfirmationStore | null;
  /** Checks a tool's output against its `outputSchema`: the registry's validator, or a default one. */
  readonly outputValidator: OutputValidator;
}

interface LendingRegistry {
  getConfirmationStore?: unknown;
  getSchemaValidator?: unknown;
}

/**
 * The collaborators `registry` lends (see {@link RegistryCollaborators}); a registry that lends
 * none gets no early revocation and a default validator, made on first use.
 *
 * @example
 * const { confirmationStore, outputValidator } = collaboratorsOf(registry);
 */
export function collaboratorsOf(registry: GovernedToolRegistry): RegistryCollaborators {
  const lending = registry as GovernedToolRegistry & LendingRegistry;
  const confirmationStore =
    typeof lending.getConfirmationStore === 'function' ? (lending.getConfirmationStore.call(registry) as ConfirmationStore) : null;
  if (typeof lending.getSchemaValidator === 'function') {
    return { confirmationStore, outputValidator: lending.getSchemaValidator.call(registry) as OutputValidator };
  }
  let fallback: SchemaValidator | null = null;
  const outputValidator: OutputValidator = {
    compile: (schema) => {
      fallback ??= new SchemaValidator();
      return fallback.compile(schema);
    },
  };
  return { confirmationStore, outputValidator };
}
