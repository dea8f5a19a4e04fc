import { MilpaError, ToolContext } from '@milpa/core';
import { messageOf } from '../pipeline/settle.js';

/** What a registry falls back to for a call without a context: a context, a factory, or nothing. */
export type DefaultContext = ToolContext | (() => ToolContext) | null;

/** A context from another copy of core, or a plain object, rebuilt (and validated) as a `ToolContext`. */
export function toToolContext(context: unknown): ToolContext {
  if (context instanceof ToolContext) return context;
  return new ToolContext(context as ConstructorParameters<typeof ToolContext>[0]);
}

/**
 * The registry's `defaultContext` option, checked once at construction.
 * @throws MilpaError `INVALID_ARGUMENT` when it is neither a context (or context-like object) nor a function.
 */
export function checkDefaultContext(context: unknown): DefaultContext {
  if (context === undefined || context === null) return null;
  if (typeof context === 'function') return context as () => ToolContext;
  try {
    return toToolContext(context);
  } catch (error) {
    throw new MilpaError(`ToolRegistry option defaultContext must be a ToolContext: ${messageOf(error)}`, {
      code: 'INVALID_ARGUMENT',
      cause: error,
    });
  }
}

/**
 * The context a call runs with: the caller's own, else the registry's default; null when there is
 * neither (the call is refused). Throws when a given context is malformed.
 */
export function resolveCallContext(context: unknown, fallback: DefaultContext): ToolContext | null {
  if (context !== undefined && context !== null) return toToolContext(context);
  if (fallback === null) return null;
  return typeof fallback === 'function' ? toToolContext(fallback()) : fallback;
}
