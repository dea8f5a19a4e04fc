import { MilpaError } from '@milpa/core';
import { profileMaxTools, type ToolProfile } from './tool-profile.js';

/** A tool budget that turns the per-turn cap off, so every tool is offered. */
export const UNLIMITED = -1;

/** The per-turn budget of a model id that matches no fragment of {@link MODEL_TOOL_BUDGETS}. */
export const DEFAULT_MODEL_TOOL_BUDGET = 10;

/**
 * Per-turn tool budgets by model id fragment, tried in this order; the first fragment found in the
 * id wins. The order matters: `gpt-4o-mini` is a mini model (8) before it is a GPT-4o (15), and
 * `gemini-3.5-flash-lite` a Flash model (6) before it is a Gemini (15).
 */
export const MODEL_TOOL_BUDGETS: readonly (readonly [fragment: string, budget: number])[] = Object.freeze(
  (
    [
      ['haiku', 6],
      ['flash', 6],
      ['gpt-3.5', 5],
      ['mini', 8],
      ['gemini', 15],
      ['sonnet', 12],
      ['gpt-4o', 15],
      ['opus', 20],
    ] as const
  ).map((entry) => Object.freeze(entry)),
);

/** What {@link resolveToolBudget} decides from. */
export interface ToolBudgetInput {
  /**
   * The host's own budget, when it set one: {@link UNLIMITED}, a positive count, or 0 to derive
   * the budget from the model. Other negative values count as 0.
   */
  readonly explicit?: number;
  /** The turn's profile; `minimal` and `standard` cap the budget when no explicit one is given. */
  readonly profile: ToolProfile;
  /** The model id, for the budget derived from {@link MODEL_TOOL_BUDGETS}. */
  readonly model: string;
}

const ID_CHARACTER = /[a-z0-9]/;

// A fragment counts only as a whole token of the id: a plain substring test would read every
// `gemini-…` id as a `mini` model, because "gemini" ends in "mini".
function containsToken(id: string, fragment: string): boolean {
  for (let at = id.indexOf(fragment); at !== -1; at = id.indexOf(fragment, at + 1)) {
    const before = at === 0 ? '' : id.charAt(at - 1);
    const after = id.charAt(at + fragment.length);
    if (!ID_CHARACTER.test(before) && !ID_CHARACTER.test(after)) return true;
  }
  return false;
}

/**
 * The per-turn tool budget of a model id, from the first fragment of {@link MODEL_TOOL_BUDGETS}
 * the id contains as a whole token (case-insensitive), or {@link DEFAULT_MODEL_TOOL_BUDGET}.
 *
 * @example
 * toolBudgetForModel('gpt-4o-mini'); // 8
 * toolBudgetForModel('gemini-3.5-flash-lite'); // 6
 * toolBudgetForModel('gemini-2.5-pro'); // 15
 * toolBudgetForModel('llama3.1:8b'); // 10
 */
export function toolBudgetForModel(model: string): number {
  const id = String(model).toLowerCase();
  for (const [fragment, budget] of MODEL_TOOL_BUDGETS) {
    if (containsToken(id, fragment)) return budget;
  }
  return DEFAULT_MODEL_TOOL_BUDGET;
}

/**
 * The per-turn tool budget of a turn. An explicit budget decides when given: {@link UNLIMITED}
 * turns the cap off, a positive count is used as it is, and 0 or any other negative value is
 * clamped to 0, which derives the budget from the model. Without one, the profile's cap applies
 * (`minimal` 5, `standard` 8), and on `full` the budget comes from the model id.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `explicit` is given but is not an integer, or the
 *   profile is unknown.
 *
 * @example
 * resolveToolBudget({ profile: 'full', model: 'claude-sonnet-4' }); // 12
 * resolveToolBudget({ profile: 'minimal', model: 'llama3.1:8b' }); // 5
 * resolveToolBudget({ explicit: UNLIMITED, profile: 'minimal', model: 'llama3.1:8b' }); // UNLIMITED
 * resolveToolBudget({ explicit: -3, profile: 'full', model: 'gpt-4o' }); // 15
 */
export function resolveToolBudget(input: ToolBudgetInput): number {
  const { explicit, profile, model } = input;
  const profileCap = profileMaxTools(profile);
  if (explicit !== undefined) {
    if (typeof explicit !== 'number' || !Number.isInteger(explicit)) {
      throw new MilpaError(`The tool budget must be an integer or UNLIMITED, got ${String(explicit)}.`, { code: 'INVALID_ARGUMENT' });
    }
    if (explicit === UNLIMITED) return UNLIMITED;
    if (explicit > 0) return explicit;
    return toolBudgetForModel(model);
  }
  return profileCap > 0 ? profileCap : toolBudgetForModel(model);
}
