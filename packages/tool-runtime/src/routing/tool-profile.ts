import { MilpaError } from '@milpa/core';
import type { ProviderName, ProviderToolDescriptions } from './provider-shapes.js';

/**
 * How much of the tool set a model is shown, from its provider and size: `minimal` for small local
 * or low-latency models, `standard` for medium ones on the same providers, `full` for the rest.
 */
export type ToolProfile = 'minimal' | 'standard' | 'full';

// Providers that mostly serve small open-weight models, whose context and attention are short.
const SMALL_MODEL_PROVIDERS: ReadonlySet<string> = new Set(['ollama', 'groq']);
// Parameter counts that mark a medium open-weight model; matched anywhere in the id.
const MEDIUM_MODEL_PATTERNS = ['30b', '32b', '34b', '35b', '65b', '70b', '72b'] as const;

const MAX_TOOLS: Readonly<Record<ToolProfile, number>> = Object.freeze({ minimal: 5, standard: 8, full: 0 });
const TOKEN_BUDGETS: Readonly<Record<ToolProfile, number | null>> = Object.freeze({ minimal: 3000, standard: 6000, full: null });

function checkProfile(profile: unknown): ToolProfile {
  if (profile !== 'minimal' && profile !== 'standard' && profile !== 'full') {
    throw new MilpaError(`Unknown tool profile '${String(profile)}'; expected 'minimal', 'standard' or 'full'.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return profile;
}

/**
 * The profile of a provider and model: `ollama` and `groq` get `minimal`, or `standard` when the
 * model id contains a medium size (`30b`, `32b`, `34b`, `35b`, `65b`, `70b`, `72b`); every other
 * provider gets `full`. Both are compared without regard to case.
 *
 * @example
 * resolveToolProfile('ollama', 'llama3.1:8b'); // 'minimal'
 * resolveToolProfile('groq', 'llama-3.3-70b-versatile'); // 'standard'
 * resolveToolProfile('anthropic', 'claude-sonnet-4'); // 'full'
 */
export function resolveToolProfile(provider: ProviderName, model: string): ToolProfile {
  if (!SMALL_MODEL_PROVIDERS.has(String(provider).trim().toLowerCase())) return 'full';
  const id = String(model).toLowerCase();
  return MEDIUM_MODEL_PATTERNS.some((pattern) => id.includes(pattern)) ? 'standard' : 'minimal';
}

/**
 * The most tools a profile offers per turn: 5 (`minimal`), 8 (`standard`), or 0 for `full`,
 * meaning no profile cap, so the budget comes from the model id instead.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for an unknown profile.
 */
export function profileMaxTools(profile: ToolProfile): number {
  return MAX_TOOLS[checkProfile(profile)];
}

/**
 * The estimated tokens a request may take on a profile (system prompt, history and tool schemas):
 * 3,000 (`minimal`), 6,000 (`standard`), or null for `full`, which has no token budget.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for an unknown profile.
 */
export function profileTokenBudget(profile: ToolProfile): number | null {
  return TOKEN_BUDGETS[checkProfile(profile)];
}

/**
 * How a profile sends tool descriptions, as the `descriptions` option of `toProviderTool` and
 * `ProviderToolShapes` takes it: `minimal` sends only the first line, to save tokens; `standard`
 * and `full` send them whole.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for an unknown profile.
 *
 * @example
 * toProviderTool(summary, 'ollama', { descriptions: profileDescriptionStyle('minimal') }); // first lines only
 */
export function profileDescriptionStyle(profile: ToolProfile): ProviderToolDescriptions {
  return checkProfile(profile) === 'minimal' ? 'first-line' : 'full';
}
