import { mutabilityOf, type AnyToolDefinition, type ToolMutability } from '@milpa/core';
import { clipText, isRecord } from '@milpa/core/kit';

/** The most characters of a description or reason the console shows (the gate cuts them already). */
const MAX_TEXT_CHARS = 2_000;
/** The most characters of a target's kind or id the console shows. */
const MAX_TARGET_CHARS = 256;

/** How a tool changes things, as its hints say (the terms of MCP's tool annotations). */
export interface ToolHints {
  /** Whether this call changes something (always true for a held call). */
  readonly mutating: boolean;
  /** Whether the tool may destroy or overwrite something (every tool that is not read-only). */
  readonly destructive: boolean;
  /** `mutating` (every call) or `depends_on_arguments` (calls whose arguments make it mutating). */
  readonly mutability: ToolMutability | null;
}

/** What the resolved target names: the thing the call acts on. */
export interface TargetReference {
  /** The kind of thing, e.g. `note`. */
  readonly kind: string;
  /** Its identifier. */
  readonly id: string;
}

/**
 * What an approver needs to decide, as the approval gate stored it with the held call (or, for a
 * call held before the gate stored it, as the console's tool catalog tells). Every text here comes
 * from outside the console: the tool's author, the target resolver, the agent. Show it as text.
 */
export interface DecisionFacts {
  /** The tool's description, or null when unknown. */
  readonly description: string | null;
  /** The tool's hints, or null when unknown. */
  readonly hints: ToolHints | null;
  /** The resolved target, or null when no resolver named one. */
  readonly target: TargetReference | null;
  /** The agent's stated reason for the call (its own words, unverified), or null when it gave none. */
  readonly reason: string | null;
}

/** The facts of a call held with none known. */
export const NO_FACTS: DecisionFacts = Object.freeze({ description: null, hints: null, target: null, reason: null });

function text(value: unknown, max: number): string | null {
  return typeof value === 'string' && value !== '' ? clipText(value, max) : null;
}

function readHints(value: unknown): ToolHints | null {
  if (!isRecord(value)) return null;
  const { mutating, destructive, mutability } = value;
  if (typeof mutating !== 'boolean' || typeof destructive !== 'boolean') return null;
  const known = mutability === 'mutating' || mutability === 'depends_on_arguments' || mutability === 'read_only';
  return { mutating, destructive, mutability: known ? mutability : null };
}

function readTarget(value: unknown): TargetReference | null {
  if (!isRecord(value)) return null;
  const kind = text(value['kind'], MAX_TARGET_CHARS);
  const id = text(value['id'], MAX_TARGET_CHARS);
  return kind === null || id === null ? null : { kind, id };
}

/**
 * The decision facts of a held call's verification payload; anything missing or malformed reads
 * as unknown (null), never as a guess.
 */
export function readDecisionFacts(payload: Readonly<Record<string, unknown>>): DecisionFacts {
  return {
    description: text(payload['description'], MAX_TEXT_CHARS),
    hints: readHints(payload['hints']),
    target: readTarget(payload['target']),
    reason: text(payload['reason'], MAX_TEXT_CHARS),
  };
}

/**
 * `facts` with the description and hints the payload lacked taken from the tool's definition in the
 * console's catalog (a call held before the gate stored them); what the payload holds wins.
 */
export function withCatalogFacts(facts: DecisionFacts, definition: AnyToolDefinition | null | undefined): DecisionFacts {
  if (definition === null || definition === undefined) return facts;
  const mutability = mutabilityOf(definition);
  return {
    ...facts,
    description: facts.description ?? text(definition.description, MAX_TEXT_CHARS),
    // The gate asks only about calls that mutate for their arguments, so a held call did.
    hints: facts.hints ?? { mutating: true, destructive: mutability !== 'read_only', mutability },
  };
}
