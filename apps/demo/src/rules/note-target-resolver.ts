import { invocationTarget, type InvocationTarget, type TargetResolver } from '@milpa/core';

/** The tools that act on one note, named by their `id` argument. */
export const NOTE_TOOLS: readonly string[] = Object.freeze(['get_note', 'delete_note']);

/**
 * Names the note a `get_note` or `delete_note` call acts on, `{ kind: 'note', id: '3' }`, for the
 * invocation rules and the run's history; every other call is left unclaimed (null).
 *
 * @example
 * new ToolRegistry({ targetResolvers: [noteTargetResolver] });
 */
export const noteTargetResolver: TargetResolver = Object.freeze<TargetResolver>({
  resolve({ toolName, arguments: args }): InvocationTarget | null {
    const id = args['id'];
    // Validation has run: the id is a whole number >= 1; anything else is not ours to name.
    return NOTE_TOOLS.includes(toolName) && typeof id === 'number' && Number.isSafeInteger(id) ? invocationTarget('note', id) : null;
  },
});
