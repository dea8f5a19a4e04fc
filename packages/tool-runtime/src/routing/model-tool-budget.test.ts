import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_TOOL_BUDGET, MODEL_TOOL_BUDGETS, UNLIMITED, resolveToolBudget, toolBudgetForModel } from './model-tool-budget.js';

describe('MODEL_TOOL_BUDGETS', () => {
  it('lists the fragments in the order they are tried', () => {
    expect(MODEL_TOOL_BUDGETS).toEqual([
      ['haiku', 6],
      ['flash', 6],
      ['gpt-3.5', 5],
      ['mini', 8],
      ['gemini', 15],
      ['sonnet', 12],
      ['gpt-4o', 15],
      ['opus', 20],
    ]);
    expect(Object.isFrozen(MODEL_TOOL_BUDGETS)).toBe(true);
    expect(Object.isFrozen(MODEL_TOOL_BUDGETS[0])).toBe(true);
  });
});

describe('toolBudgetForModel', () => {
  it.each([
    ['claude-3-5-haiku-20241022', 6],
    ['claude-haiku-4-5', 6],
    ['gemini-2.5-flash', 6],
    ['gpt-3.5-turbo', 5],
    ['o4-mini', 8],
    ['gemini-2.5-pro', 15],
    ['claude-sonnet-4-20250514', 12],
    ['gpt-4o', 15],
    ['gpt-4o-2024-05-13', 15],
    ['claude-opus-4-1', 20],
    ['gpt-4.1', DEFAULT_MODEL_TOOL_BUDGET],
    ['llama3.1:8b', 10],
    ['', 10],
  ])('gives %s a budget of %i', (model, budget) => {
    expect(toolBudgetForModel(model)).toBe(budget);
  });

  it('gives gpt-4o-mini 8, because mini is tried before gpt-4o', () => {
    expect(toolBudgetForModel('gpt-4o-mini')).toBe(8);
  });

  it('gives gemini-3.5-flash-lite 6, because flash is tried before gemini', () => {
    expect(toolBudgetForModel('gemini-3.5-flash-lite')).toBe(6);
  });

  it('does not read the end of "gemini" as the fragment mini', () => {
    expect(toolBudgetForModel('gemini-2.5-pro')).toBe(15);
    expect(toolBudgetForModel('gemini')).toBe(15);
  });

  it('matches fragments only as whole tokens of the id', () => {
    expect(toolBudgetForModel('minimax-m1')).toBe(10);
    expect(toolBudgetForModel('flashy-model')).toBe(10);
    expect(toolBudgetForModel('chatgpt-4o-latest')).toBe(10);
    expect(toolBudgetForModel('gpt-3.50')).toBe(10);
  });

  it('matches a fragment after a provider path or a vendor prefix, and without regard to case', () => {
    expect(toolBudgetForModel('openai/gpt-4o-mini')).toBe(8);
    expect(toolBudgetForModel('anthropic.claude-3-haiku-20240307-v1:0')).toBe(6);
    expect(toolBudgetForModel('models/Gemini-1.5-PRO')).toBe(15);
    expect(toolBudgetForModel('Claude-Opus-4')).toBe(20);
  });
});

describe('resolveToolBudget', () => {
  it('derives the budget from the model on the full profile', () => {
    expect(resolveToolBudget({ profile: 'full', model: 'gpt-4o-mini' })).toBe(8);
    expect(resolveToolBudget({ profile: 'full', model: 'unknown-model' })).toBe(10);
  });

  it('uses the profile cap on minimal and standard', () => {
    expect(resolveToolBudget({ profile: 'minimal', model: 'llama3.1:8b' })).toBe(5);
    expect(resolveToolBudget({ profile: 'standard', model: 'llama-3.3-70b' })).toBe(8);
  });

  it('uses an explicit positive budget as it is', () => {
    expect(resolveToolBudget({ explicit: 3, profile: 'full', model: 'claude-opus-4' })).toBe(3);
    expect(resolveToolBudget({ explicit: 12, profile: 'minimal', model: 'llama3.1:8b' })).toBe(12);
  });

  it('turns the cap off for an explicit UNLIMITED, whatever the profile', () => {
    expect(resolveToolBudget({ explicit: UNLIMITED, profile: 'minimal', model: 'llama3.1:8b' })).toBe(UNLIMITED);
    expect(resolveToolBudget({ explicit: UNLIMITED, profile: 'full', model: 'gpt-4o' })).toBe(UNLIMITED);
  });

  it('clamps any other negative value to 0 and derives the budget from the model', () => {
    expect(resolveToolBudget({ explicit: -2, profile: 'full', model: 'gpt-4o' })).toBe(15);
    expect(resolveToolBudget({ explicit: -100, profile: 'full', model: 'claude-3-haiku' })).toBe(6);
    expect(resolveToolBudget({ explicit: 0, profile: 'full', model: 'claude-sonnet-4' })).toBe(12);
  });

  it('throws INVALID_ARGUMENT for an explicit budget that is not an integer', () => {
    for (const explicit of [1.5, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      expect(() => resolveToolBudget({ explicit, profile: 'full', model: 'gpt-4o' })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('throws INVALID_ARGUMENT for an unknown profile', () => {
    expect(() => resolveToolBudget({ profile: 'tiny' as 'full', model: 'gpt-4o' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
