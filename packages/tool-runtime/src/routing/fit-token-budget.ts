import { MilpaError } from '@milpa/core';

/** A tool offered this turn, with the estimated tokens of its schema as sent. */
export interface TokenBudgetTool {
  /** The tool's name. */
  readonly name: string;
  /** Its estimated tokens (four characters per token), a non-negative number. */
  readonly tokens: number;
}

/** What {@link fitTokenBudget} fits. */
export interface TokenBudgetRequest<T extends TokenBudgetTool = TokenBudgetTool> {
  /**
   * The offered tools in the order to keep them: best first when the router ranked, registration
   * order when it did not (the router's `ranking`), always-included tools anywhere among them.
   */
  readonly tools: readonly T[];
  /** Names of the always-included tools, which are never dropped. */
  readonly alwaysIncluded?: readonly string[];
  /** Characters of the system prompt. */
  readonly systemPromptLength: number;
  /** Characters of the history, the current message included. */
  readonly historyLength: number;
  /** The profile's token budget, or null for none (nothing is dropped). */
  readonly tokenBudget: number | null;
}

/** The tools that fit, and what was dropped. */
export interface TokenBudgetFit<T extends TokenBudgetTool = TokenBudgetTool> {
  /** The tools kept, in the order given. */
  readonly tools: readonly T[];
  /** The names of the dropped tools, in the order they were dropped. */
  readonly dropped: readonly string[];
  /** The request's estimated tokens with the kept tools. */
  readonly estimatedTokens: number;
  /**
   * Whether the estimate is within the budget; false when even the tools that are never dropped
   * (the always-included ones and one routed tool) do not fit.
   */
  readonly fits: boolean;
}

const CHARS_PER_TOKEN = 4;

function invalid(message: string): MilpaError {
  return new MilpaError(`fitTokenBudget: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function checkLength(label: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalid(`${label} must be a non-negative number, got ${String(value)}.`);
  }
  return value;
}

/**
 * Drops offered tools one at a time, from the end of `tools`, until the estimated request fits
 * the token budget: the system prompt and history at four characters per token, plus each tool's
 * tokens. At least one routed tool is kept, and an always-included tool is never dropped; with
 * the router's ranking that drops the lowest-ranked tool first, and without it, the last
 * registered, even one the message names.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a negative or non-finite length, token count or budget.
 *
 * @example
 * const fit = fitTokenBudget({
 *   tools: selection.ranking.map((name) => ({ name, tokens: estimates.get(name) ?? 0 })),
 *   systemPromptLength: systemPrompt.length,
 *   historyLength: history.reduce((sum, message) => sum + message.content.length, 0),
 *   tokenBudget: profileTokenBudget('minimal'),
 * });
 */
export function fitTokenBudget<T extends TokenBudgetTool>(request: TokenBudgetRequest<T>): TokenBudgetFit<T> {
  const { tools, tokenBudget } = request;
  if (!Array.isArray(tools)) throw invalid('tools must be an array.');
  if (tokenBudget !== null) checkLength('tokenBudget', tokenBudget);
  const textTokens = Math.ceil(
    (checkLength('systemPromptLength', request.systemPromptLength) + checkLength('historyLength', request.historyLength)) / CHARS_PER_TOKEN,
  );
  let estimatedTokens = textTokens;
  for (const tool of tools) estimatedTokens += checkLength(`tokens of '${String(tool.name)}'`, tool.tokens);

  const always = new Set(request.alwaysIncluded ?? []);
  const kept = new Set<T>(tools);
  const dropped: string[] = [];
  let routedLeft = tools.filter((tool) => !always.has(tool.name)).length;
  for (let index = tools.length - 1; index >= 0 && tokenBudget !== null && estimatedTokens > tokenBudget; index--) {
    const tool = tools[index] as T;
    if (always.has(tool.name)) continue;
    if (routedLeft <= 1) break;
    kept.delete(tool);
    dropped.push(tool.name);
    estimatedTokens -= tool.tokens;
    routedLeft--;
  }

  return Object.freeze({
    tools: Object.freeze(tools.filter((tool) => kept.has(tool))),
    dropped: Object.freeze(dropped),
    estimatedTokens,
    fits: tokenBudget === null || estimatedTokens <= tokenBudget,
  });
}
