import { MilpaError, type ToolMode } from '@milpa/core';
import { InvocationStepKind } from './invocation-step-kind.js';
import type { InvocationStep, InvocationStepJson } from './invocation-step.js';

/** Whether an optional collaborator is wired. */
export type WiringState = 'present' | 'absent';

/** The caller a plan was built for; `actor` is the principal, never invented. */
export interface InvocationPlanContext {
  /** The context's principal, or null for an anonymous caller. */
  readonly actor: string | null;
  /** The scopes the caller holds. */
  readonly scopes: readonly string[];
  /** `'execute'` or `'plan'`. */
  readonly mode: ToolMode;
}

/** Which optional collaborators the registry has. */
export interface InvocationPlanWiring {
  /** Rate limiter. */
  readonly rateLimiter: WiringState;
  /** Event dispatcher. */
  readonly dispatcher: WiringState;
  /** Policy rule provider. */
  readonly ruleProvider: WiringState;
}

/** The fields of an {@link InvocationPlan}. */
export interface InvocationPlanInit {
  /** The plan format version; `'1.0'`. */
  readonly schemaVersion: string;
  /** The tool's name. */
  readonly operation: string;
  /** The channel inspected. */
  readonly channel: string;
  /** The caller inspected. */
  readonly context: InvocationPlanContext;
  /** Predictions the plan makes about this caller (e.g. that authorize would deny). */
  readonly assumptions: readonly string[];
  /** Which optional collaborators are wired. */
  readonly wiring: InvocationPlanWiring;
  /** One step per stage, in pipeline order. */
  readonly steps: readonly InvocationStep[];
}

/**
 * The wire shape of an {@link InvocationPlan}, keys in the order of {@link InvocationPlanInit}
 * (reference §2.14), with each step as `{kind, role, presence, blocking, mutates, wraps, source}`.
 */
export type InvocationPlanJson = Omit<InvocationPlanInit, 'steps'> & {
  /** The steps as JSON. */
  readonly steps: readonly InvocationStepJson[];
};

/**
 * A read-only x-ray of the pipeline for one tool, one caller and one registry wiring: which of the
 * eleven stages would run, which cannot fire, which are not wired, and why. Built by
 * {@link InvocationPlanBuilder}; nothing is executed to produce it.
 *
 * @example
 * const plan = new InvocationPlanBuilder(gate).build(tool, ToolContext.web('u', []), wiring);
 * plan.getStep('confirm').presence; // 'dormant'
 * JSON.stringify(plan); // {"schemaVersion":"1.0","operation":"…","channel":"web",…}
 */
export class InvocationPlan {
  /** The plan format version. */
  readonly schemaVersion: string;
  /** The tool's name. */
  readonly operation: string;
  /** The channel inspected. */
  readonly channel: string;
  /** The caller inspected. */
  readonly context: InvocationPlanContext;
  /** Predictions about this caller. */
  readonly assumptions: readonly string[];
  /** Which optional collaborators are wired. */
  readonly wiring: InvocationPlanWiring;
  /** The steps, in pipeline order. */
  readonly steps: readonly InvocationStep[];

  constructor(init: InvocationPlanInit) {
    this.schemaVersion = init.schemaVersion;
    this.operation = init.operation;
    this.channel = init.channel;
    this.context = Object.freeze({ actor: init.context.actor, scopes: Object.freeze([...init.context.scopes]), mode: init.context.mode });
    this.assumptions = Object.freeze([...init.assumptions]);
    this.wiring = Object.freeze({
      rateLimiter: init.wiring.rateLimiter,
      dispatcher: init.wiring.dispatcher,
      ruleProvider: init.wiring.ruleProvider,
    });
    this.steps = Object.freeze([...init.steps]);
    Object.freeze(this);
  }

  /**
   * The step of one kind.
   * @throws MilpaError `INVALID_ARGUMENT` for an unknown kind, `STEP_NOT_IN_PLAN` when this plan has
   *   no such step (a builder plan always has all eleven).
   */
  getStep(kind: InvocationStepKind): InvocationStep {
    if (!InvocationStepKind.isInvocationStepKind(kind)) {
      throw new MilpaError(`InvocationPlan: unknown step kind '${String(kind)}'.`, { code: 'INVALID_ARGUMENT' });
    }
    const step = this.steps.find((candidate) => candidate.kind === kind);
    if (step === undefined) {
      throw new MilpaError(`InvocationPlan: the plan for '${this.operation}' has no '${kind}' step.`, {
        code: 'STEP_NOT_IN_PLAN',
      });
    }
    return step;
  }

  /** `{schemaVersion, operation, channel, context:{actor, scopes, mode}, assumptions, wiring, steps}`, in that order. */
  toJSON(): InvocationPlanJson {
    return {
      schemaVersion: this.schemaVersion,
      operation: this.operation,
      channel: this.channel,
      context: { actor: this.context.actor, scopes: this.context.scopes, mode: this.context.mode },
      assumptions: this.assumptions,
      wiring: {
        rateLimiter: this.wiring.rateLimiter,
        dispatcher: this.wiring.dispatcher,
        ruleProvider: this.wiring.ruleProvider,
      },
      steps: this.steps.map((step) => step.toJSON()),
    };
  }
}
