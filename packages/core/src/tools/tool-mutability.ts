import type { ToolArgs } from './tool-definition.js';

/**
 * Whether a tool changes state: `true` or `false` for every call, or a function that answers for
 * one call's validated arguments (a shell tool that mutates for `rm` but not for `ls`).
 *
 * @example
 * defineTool({
 *   name: 'shell_exec',
 *   description: 'Run a shell command',
 *   input: Type.Object({ command: Type.String() }),
 *   mutating: ({ command }) => !/^(ls|cat|pwd)\b/.test(command),
 *   handler: run,
 * });
 */
export type ToolMutating<TArgs = ToolArgs> = boolean | ((args: TArgs) => boolean);

/**
 * What can be said about a tool's mutability without a call's arguments: it always mutates, it
 * never does, or the answer depends on the arguments (its `mutating` is a function).
 */
export type ToolMutability = 'mutating' | 'read_only' | 'depends_on_arguments';

/** The part of a tool definition its mutability is read from. */
export interface MutabilitySubject {
  /** The tool's `mutating` flag or per-call function. */
  readonly mutating: ToolMutating<any>;
}

/**
 * Whether one call to `definition` with `args` (its validated arguments) mutates. A boolean flag
 * answers for itself; a function is asked with `args`, and a function that throws or answers
 * anything but a boolean counts as mutating (fail-closed). Ask once per call and keep the answer:
 * a function may answer differently when asked again.
 *
 * @example
 * if (isMutatingCall(definition, args) && policy.block_mutating) refuse();
 */
export function isMutatingCall(definition: MutabilitySubject, args: ToolArgs): boolean {
  const mutating: unknown = definition.mutating;
  if (typeof mutating === 'boolean') return mutating;
  if (typeof mutating !== 'function') return true;
  let answer: unknown;
  try {
    // Called without a receiver: the function is an option, not a method of the definition.
    answer = (mutating as (args: ToolArgs) => unknown).call(undefined, args);
  } catch {
    return true;
  }
  // Only exactly false is read-only: a promise, 0, 'no' or undefined must not pass as safe.
  return answer !== false;
}

/**
 * The mutability of `definition` for places that have no arguments (listing, inspection, MCP
 * annotations): `'mutating'`, `'read_only'`, or `'depends_on_arguments'` for a per-call function.
 *
 * @example
 * mutabilityOf(shellExec); // 'depends_on_arguments'
 */
export function mutabilityOf(definition: MutabilitySubject): ToolMutability {
  const mutating: unknown = definition.mutating;
  if (typeof mutating === 'function') return 'depends_on_arguments';
  // Anything but exactly false (a hand-built subject) is treated as mutating.
  return mutating === false ? 'read_only' : 'mutating';
}
