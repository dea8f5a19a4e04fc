import type { AnyToolDefinition, ToolContext } from '@milpa/core';
import type { InspectablePolicy } from '../inspection/inspectable-policy.js';
import type { InvocationStepInit } from '../inspection/invocation-step.js';
import type { RegistryWiring } from '../inspection/registry-wiring.js';
import type { ChannelPolicy } from '../policy/channel-policy.js';
import type { CallOutcome, ToolArgs, ToolResult } from '@milpa/core';
import type { PipelineCall } from './pipeline-call.js';
import type { PipelineServices } from './pipeline-services.js';
import type { RegisteredTool } from './registered-tool.js';

/** What a stage answers when it has ended the call (its result is on the call state). */
export const STOP: unique symbol = Symbol('milpa.stop');

/**
 * A stage's answer: `undefined` to let the call go on, {@link STOP} when it has ended the call, or a
 * promise of either when it waits on a collaborator.
 */
export type StageVerdict = undefined | typeof STOP | PromiseLike<undefined | typeof STOP>;

/** What a stage describes itself from: the tool, the caller and what the registry has wired. */
export interface StageSubject {
  /** The tool inspected. */
  readonly tool: AnyToolDefinition;
  /** The caller inspected. */
  readonly context: ToolContext;
  /** Which optional collaborators are wired, and the rate costs. */
  readonly wiring: RegistryWiring;
  /** The policy gate's read-only view. */
  readonly policy: InspectablePolicy;
  /** The effective policy of the caller's channel. */
  readonly channelPolicy: ChannelPolicy;
}

/** A call past resolve: its tool is known. What tidy, clamp and validate see. */
export interface ResolvedCall extends PipelineCall {
  /** resolve: the registered tool. */
  readonly entry: RegisteredTool;
}

/** A call past validate: its arguments are validated and frozen. What every later gate sees. */
export interface ValidatedCall extends ResolvedCall {
  /** validate (confirm or approve replace it with the redeemed arguments): the frozen arguments. */
  args: ToolArgs;
}

/** A call a gate has ended: what the exit stages see. */
export interface EndedCall extends PipelineCall {
  /** The result the caller gets (cap_result may replace it with its capped form). */
  result: ToolResult;
  /** How the call ended. */
  readonly ending: CallOutcome;
}

/** True once resolve has found the tool. */
export function isResolved(call: PipelineCall): call is ResolvedCall {
  return call.entry !== null;
}

/** True once validate has accepted the arguments. */
export function isValidated(call: PipelineCall): call is ValidatedCall {
  return call.entry !== null && call.args !== null;
}

/** True once a gate has ended the call. */
export function isEnded(call: PipelineCall): call is EndedCall {
  return call.result !== null && call.ending !== null;
}

/**
 * What every stage has. The runner calls `run` for every call that reaches it, and inspection
 * calls `describe` to tell what the stage would do for a tool and caller — the same list serves
 * both, so a plan lists exactly what a call runs, in the order it runs.
 */
export interface StageBase {
  /** The stage's name, which is also its step kind in an `InvocationPlan`. */
  readonly name: string;
  /**
   * `gate` stages run in order until one ends the call (the last one, execute, always does);
   * `exit` stages then run for every outcome, refusals included.
   */
  readonly phase: 'gate' | 'exit';
  /** Named in the fail-closed message when the stage throws or its promise rejects. */
  readonly collaborator: string;
  /**
   * True when a promise from this stage is abandoned as soon as the caller aborts (the call is then
   * refused with `TIMEOUT`); false for the handler, which gets the abort through its own signal.
   */
  readonly refusesOnAbort: boolean;
  /** The plan step (or steps) this stage contributes for `subject`. Executes nothing. */
  describe(subject: StageSubject): readonly InvocationStepInit[];
  /**
   * True when `run` leaves every plain call (see {@link isPlainCall}) untouched and answers
   * `undefined` on a registry wired as `services`: the runner then leaves the stage out of a plain
   * call's walk, which is most calls. Declared beside `run`, from the same conditions `run` checks
   * first; a stage without it runs for every call.
   */
  readonly idleForPlainCall?: (services: PipelineServices) => boolean;
}

/**
 * A plain call: it presents no control value (no idempotency key, confirmation token or approval
 * id, not even a null one), belongs to no run and is not in plan mode. Stages that only act on those
 * declare {@link StageBase.idleForPlainCall}.
 */
export function isPlainCall(call: PipelineCall): boolean {
  const options = call.options;
  if (
    options !== undefined &&
    (options.idempotencyKey !== undefined || options.confirmToken !== undefined || options.approvalId !== undefined)
  ) {
    return false;
  }
  const context = call.context;
  return context.runId === null && context.mode !== 'plan';
}

/**
 * A stage, by what it needs of the call: `call` (nothing yet: resolve), `tool` (a resolved call),
 * `arguments` (a validated call) or `result` (an ended call, for exits). The runner hands each stage
 * the call in that phase, so no stage asserts what an earlier one wrote. `run` does the stage's work
 * on one call; it may throw, and the runner contains it (fail-closed).
 */
export type Stage =
  | (StageBase & { readonly needs: 'call'; run(call: PipelineCall): StageVerdict })
  | (StageBase & { readonly needs: 'tool'; run(call: ResolvedCall): StageVerdict })
  | (StageBase & { readonly needs: 'arguments'; run(call: ValidatedCall): StageVerdict })
  | (StageBase & { readonly needs: 'result'; run(call: EndedCall): StageVerdict });

/** Runs `stage` on `call` in the phase it needs; {@link NOT_READY} when the call has not reached it. */
export function runStage(stage: Stage, call: PipelineCall): StageVerdict | typeof NOT_READY {
  switch (stage.needs) {
    case 'call':
      return stage.run(call);
    case 'tool':
      return isResolved(call) ? stage.run(call) : NOT_READY;
    case 'arguments':
      return isValidated(call) ? stage.run(call) : NOT_READY;
    case 'result':
      return isEnded(call) ? stage.run(call) : NOT_READY;
  }
}

/** What {@link runStage} answers for a stage whose call has not reached the phase it needs. */
export const NOT_READY: unique symbol = Symbol('milpa.notReady');
