import {
  MilpaError,
  type ToolResult,
  defineTool,
  type Static,
  type TObject,
  type ToolDefinition,
  type ToolInvocation,
  type ToolOptions,
} from '@milpa/core';
import { failure } from './tool-envelope.js';
import { ToolError } from './tool-error.js';

type Awaitable<T> = T | Promise<T>;

/** What `plan` decides: finish the call now with a result, or go on with this (normalized) input. */
export type LifecyclePlan<TInput> = { readonly result: ToolResult } | { readonly input: TInput };

/** What `recover` decides: finish the call with a result, or `'retry'` the work. */
export type LifecycleRecovery = ToolResult | 'retry';

/** The steps and settings of a lifecycle tool; see {@link defineLifecycleTool}. */
export interface LifecycleToolOptions<I extends TObject, TInput, TRaw> extends ToolOptions<Static<I>> {
  /** Unique name on the wire. */
  readonly name: string;
  /** What the tool does, for people and models. */
  readonly description: string;
  /** A TypeBox object schema of the arguments. */
  readonly input?: I;
  /** Authorize, normalize, validate: finish early with `{ result }`, or hand `{ input }` on. Never retried. */
  plan(args: Static<I>, invocation: ToolInvocation): Awaitable<LifecyclePlan<TInput>>;
  /** Does the work and returns its raw, unformatted outcome. */
  perform(input: TInput, invocation: ToolInvocation): Awaitable<TRaw>;
  /** Checks the raw outcome before the model sees it: a result finishes the call, nothing goes on. */
  verify?(raw: TRaw, input: TInput, invocation: ToolInvocation): Awaitable<ToolResult | null | undefined>;
  /** Builds the result the model receives (a `ToolResult`, e.g. from `success`, or plain data). */
  complete(raw: TRaw, input: TInput, invocation: ToolInvocation): Awaitable<unknown>;
  /**
   * Offered a `ToolError` with a cause thrown by `perform`, `verify` or `complete`, while retries
   * remain (`attempt` counts the retries already made, from 0): return a result to finish, or
   * `'retry'` to run `perform` again. Without `recover`, such an error is never retried.
   */
  recover?(error: ToolError, attempt: number, invocation: ToolInvocation): Awaitable<LifecycleRecovery>;
  /** How many times `perform` may be retried after a recoverable failure; default 1. */
  readonly maxRecoveryAttempts?: number;
}

/**
 * Defines a tool by its lifecycle instead of one handler: `plan → perform → verify → complete`,
 * with `recover` deciding whether an infrastructure failure is retried. The result is an ordinary
 * tool definition (register it like any other).
 *
 * - `plan` may finish early (`{ result }`), e.g. a refusal, or hand normalized input on.
 * - `perform` does the work; `verify` may finish with a result; `complete` builds the result.
 * - A `ToolError` **with a cause** thrown by `perform`, `verify` or `complete` goes to
 *   `recover(error, attempt)` while `attempt < maxRecoveryAttempts` (default 1); `'retry'` runs
 *   `perform` again, unless the call's signal has aborted meanwhile.
 * - Anything thrown by `plan`, a `ToolError` without a cause, or any other error is never retried.
 *   A `ToolError` (retries exhausted, or never retryable) becomes a failure result with its code
 *   and message; any other error is left to the pipeline, which contains it as `INTERNAL_ERROR`.
 *
 * @example
 * const lookup = defineLifecycleTool({
 *   name: 'lookup', description: 'Look a key up', input: Type.Object({ key: Type.String() }),
 *   plan: (args) => (args.key === '' ? { result: failure('EMPTY_KEY', 'key must not be empty') } : { input: args.key.trim() }),
 *   perform: async (key) => {
 *     try {
 *       return await index.get(key);
 *     } catch (error) {
 *       throw new ToolError('INDEX_UNAVAILABLE', 'The index is unavailable.', { cause: error });
 *     }
 *   },
 *   complete: (value, key) => success({ key, value }),
 *   recover: () => 'retry',
 * });
 */
export function defineLifecycleTool<I extends TObject = TObject, TInput = Static<I>, TRaw = unknown>(
  options: LifecycleToolOptions<I, TInput, TRaw>,
): ToolDefinition<Static<I>> {
  const { plan, perform, verify, complete, recover, maxRecoveryAttempts = 1, ...toolOptions } = options;
  if (!Number.isInteger(maxRecoveryAttempts) || maxRecoveryAttempts < 0) {
    throw new MilpaError(`maxRecoveryAttempts must be a whole number ≥ 0, got ${String(maxRecoveryAttempts)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  for (const [step, value] of [
    ['plan', plan],
    ['perform', perform],
    ['complete', complete],
  ] as const) {
    if (typeof value !== 'function') {
      throw new MilpaError(`Lifecycle tool '${String(options.name)}' needs a ${step} function.`, { code: 'INVALID_ARGUMENT' });
    }
  }

  const work = async (input: TInput, invocation: ToolInvocation): Promise<unknown> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const raw = await perform(input, invocation);
        const verdict = verify === undefined ? null : await verify(raw, input, invocation);
        if (verdict !== null && verdict !== undefined) return verdict;
        return await complete(raw, input, invocation);
      } catch (error) {
        if (!ToolError.isRecoverable(error) || recover === undefined || attempt >= maxRecoveryAttempts) throw error;
        const decision = await recover(error, attempt, invocation);
        if (decision !== 'retry') return decision;
        // A retry never starts once the caller has given up.
        invocation.signal.throwIfAborted();
      }
    }
  };

  return defineTool({
    ...toolOptions,
    handler: async (args: Static<I>, invocation: ToolInvocation) => {
      try {
        const planned = await plan(args, invocation);
        if ('result' in planned) return planned.result;
        return await work(planned.input, invocation);
      } catch (error) {
        if (error instanceof ToolError) return failure(error.code, error.message, error.details);
        throw error;
      }
    },
  } as Parameters<typeof defineTool<I>>[0]) as ToolDefinition<Static<I>>;
}
