import type { AnyToolDefinition, ToolContext } from '@milpa/core';
import type { InspectablePolicy } from '../inspection/inspectable-policy.js';
import type { InvocationStepInit } from '../inspection/invocation-step.js';
import type { RegistryWiring } from '../inspection/registry-wiring.js';
import type { ChannelPolicy } from '../policy/channel-policy.js';
import type { PipelineCall } from './pipeline-call.js';

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

/**
 * One stage of the pipeline. The runner calls `run` for every call that reaches it, and inspection
 * calls `describe` to tell what the stage would do for a tool and caller — the same list serves
 * both, so a plan lists exactly what a call runs, in the order it runs.
 */
export interface Stage {
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
  /** Does the stage's work on one call. May throw: the runner contains it (fail-closed). */
  run(call: PipelineCall): StageVerdict;
  /** The plan step (or steps) this stage contributes for `subject`. Executes nothing. */
  describe(subject: StageSubject): readonly InvocationStepInit[];
}
