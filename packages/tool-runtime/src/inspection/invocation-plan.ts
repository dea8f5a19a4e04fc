import { MilpaError, type ToolMode } from '@milpa/core';
import { InvocationStepKind, isHostStepKind, type HostStepKind } from './invocation-step-kind.js';
import { InvocationStep, type InvocationStepJson } from './invocation-step.js';

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
 * (the plan's published format), with each step as `{kind, role, presence, blocking, mutates, wraps, source}`.
 */
export type InvocationPlanJson = Omit<InvocationPlanInit, 'steps'> & {
  /** The steps as JSON. */
  readonly steps: readonly InvocationStepJson[];
};

const WIRING_STATES: ReadonlySet<unknown> = new Set(['present', 'absent']);

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function checkPlanInit(init: InvocationPlanInit): void {
  const fail = (message: string): never => {
    throw new MilpaError(`InvocationPlan: ${message}`, { code: 'INVALID_ARGUMENT' });
  };
  if (typeof init !== 'object' || init === null) fail('expected an object.');
  for (const key of ['schemaVersion', 'operation', 'channel'] as const) {
    if (typeof init[key] !== 'string') fail(`${key} must be a string.`);
  }
  const context = init.context;
  if (typeof context !== 'object' || context === null) fail('context must be { actor, scopes, mode }.');
  if (context.actor !== null && typeof context.actor !== 'string') fail('context.actor must be a string or null.');
  if (!isStringList(context.scopes)) fail('context.scopes must be an array of strings.');
  if (context.mode !== 'execute' && context.mode !== 'plan') fail(`context.mode must be 'execute' or 'plan'.`);
  if (!isStringList(init.assumptions)) fail('assumptions must be an array of strings.');
  const wiring = init.wiring;
  if (typeof wiring !== 'object' || wiring === null) fail('wiring must be { rateLimiter, dispatcher, ruleProvider }.');
  for (const key of ['rateLimiter', 'dispatcher', 'ruleProvider'] as const) {
    if (!WIRING_STATES.has(wiring[key])) fail(`wiring.${key} must be 'present' or 'absent'.`);
  }
  if (!Array.isArray(init.steps) || !init.steps.every((step) => step instanceof InvocationStep)) {
    fail('steps must be an array of InvocationStep.');
  }
}

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

  /** @throws MilpaError `INVALID_ARGUMENT` when a field has the wrong shape. */
  constructor(init: InvocationPlanInit) {
    checkPlanInit(init);
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
   *   no such step (a builder plan has every built-in kind).
   */
  getStep(kind: InvocationStepKind | HostStepKind): InvocationStep {
    if (!InvocationStepKind.isInvocationStepKind(kind) && !isHostStepKind(kind)) {
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
