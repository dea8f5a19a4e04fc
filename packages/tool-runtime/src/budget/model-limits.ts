/**
 * Known context windows, in tokens, by model name or name prefix. A dated model id
 * (`gpt-4o-2024-05-13`) resolves to its longest listed prefix (`gpt-4o`).
 */
export const MODEL_LIMITS: Readonly<Record<string, number>> = Object.freeze({
  'gpt-3.5-turbo': 4096,
  'gpt-4': 8192,
  'gpt-4-32k': 32768,
  'gpt-4-turbo': 128000,
  'gpt-4o': 128000,
  'claude-2': 100000,
  'claude-3-haiku': 200000,
  'claude-3-sonnet': 200000,
  'claude-3-opus': 200000,
  'claude-3.5-sonnet': 200000,
  'claude-sonnet': 200000,
  'claude-haiku': 200000,
  'claude-opus': 200000,
});

/** The context window assumed for a model nobody listed: the conservative GPT-4 limit. */
export const DEFAULT_MODEL_LIMIT = 8192;

/**
 * The share of a model's context, in percent, that tool definitions may take; the rest is left
 * for the system prompt, the conversation and the answer.
 */
export const RECOMMENDED_TOOL_BUDGET_PERCENT = 30;
