import { MilpaError } from '@milpa/core';
import { InvocationStepKind, isHostStepKind, type HostStepKind } from './invocation-step-kind.js';
import { InvocationStepRole } from './invocation-step-role.js';
import { StepPresence } from './step-presence.js';

/** The fields of one {@link InvocationStep}. */
export interface InvocationStepInit {
  /** Which stage of the pipeline this is: a built-in kind, or `host:<name>` for a host's own stage. */
  readonly kind: InvocationStepKind | HostStepKind;
  /** What the stage does (guard, transform, branch, …). */
  readonly role: InvocationStepRole;
  /** Whether it runs for this tool, channel and wiring. */
  readonly presence: StepPresence;
  /** Whether the stage can end the call (refuse it or answer it) when it runs. */
  readonly blocking: boolean;
  /** Whether the stage changes state: the args (clamp) or the world (a mutating tool's execute). */
  readonly mutates: boolean;
  /** The step this one wraps (only the exception boundary wraps `execute`), else null. */
  readonly wraps: InvocationStepKind | null;
  /** Why the step has this presence, in plain English, naming the facts it was derived from. */
  readonly source: string;
}

/**
 * The wire shape of an {@link InvocationStep}: the same fields as {@link InvocationStepInit}, keys in
 * the order `kind, role, presence, blocking, mutates, wraps, source`.
 */
export type InvocationStepJson = InvocationStepInit;

function invalid(message: string): MilpaError {
  return new MilpaError(`InvocationStep: ${message}`, { code: 'INVALID_ARGUMENT' });
}

/**
 * One stage of an {@link InvocationPlan}: what it is, whether it runs and why. Immutable.
 *
 * @example
 * const step = new InvocationStep({
 *   kind: 'contain_exception', role: 'boundary', presence: 'active',
 *   blocking: false, mutates: false, wraps: 'execute', source: 'any throw → INTERNAL_ERROR',
 * });
 * JSON.stringify(step); // {"kind":"contain_exception","role":"boundary",…,"wraps":"execute","source":"…"}
 */
export class InvocationStep {
  /** Which stage of the pipeline this is: a built-in kind, or `host:<name>` for a host's own stage. */
  readonly kind: InvocationStepKind | HostStepKind;
  /** What the stage does. */
  readonly role: InvocationStepRole;
  /** Whether it runs for this tool, channel and wiring. */
  readonly presence: StepPresence;
  /** Whether the stage can end the call when it runs. */
  readonly blocking: boolean;
  /** Whether the stage changes state. */
  readonly mutates: boolean;
  /** The step this one wraps, or null. */
  readonly wraps: InvocationStepKind | null;
  /** Why the step has this presence, in plain English. */
  readonly source: string;

  /** @throws MilpaError `INVALID_ARGUMENT` when a field is not one of its allowed values. */
  constructor(init: InvocationStepInit) {
    if (typeof init !== 'object' || init === null) throw invalid('expected an object.');
    if (!InvocationStepKind.isInvocationStepKind(init.kind) && !isHostStepKind(init.kind))
      throw invalid(`unknown kind '${String(init.kind)}'.`);
    if (!InvocationStepRole.isInvocationStepRole(init.role)) throw invalid(`unknown role '${String(init.role)}'.`);
    if (!StepPresence.isStepPresence(init.presence)) throw invalid(`unknown presence '${String(init.presence)}'.`);
    if (typeof init.blocking !== 'boolean' || typeof init.mutates !== 'boolean') {
      throw invalid('blocking and mutates must be booleans.');
    }
    if (init.wraps !== null && !InvocationStepKind.isInvocationStepKind(init.wraps)) {
      throw invalid(`unknown wrapped kind '${String(init.wraps)}'.`);
    }
    if (typeof init.source !== 'string') throw invalid('source must be a string.');
    this.kind = init.kind;
    this.role = init.role;
    this.presence = init.presence;
    this.blocking = init.blocking;
    this.mutates = init.mutates;
    this.wraps = init.wraps;
    this.source = init.source;
    Object.freeze(this);
  }

  /** Exactly `{kind, role, presence, blocking, mutates, wraps, source}`, in that order. */
  toJSON(): InvocationStepJson {
    return {
      kind: this.kind,
      role: this.role,
      presence: this.presence,
      blocking: this.blocking,
      mutates: this.mutates,
      wraps: this.wraps,
      source: this.source,
    };
  }
}
