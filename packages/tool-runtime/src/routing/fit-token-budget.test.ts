import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitTokenBudget, type TokenBudgetTool } from './fit-token-budget.js';
import { ToolRouter } from './tool-router.js';

const tools = (...entries: [string, number][]): TokenBudgetTool[] => entries.map(([name, tokens]) => ({ name, tokens }));
const names = (list: readonly TokenBudgetTool[]): string[] => list.map((entry) => entry.name);

describe('fitTokenBudget', () => {
  it('estimates the system prompt and history at four characters per token, plus the tools', () => {
    const fit = fitTokenBudget({ tools: tools(['a', 10], ['b', 20]), systemPromptLength: 401, historyLength: 400, tokenBudget: null });

    expect(fit.estimatedTokens).toBe(201 + 30);
    expect(fit.fits).toBe(true);
    expect(fit.dropped).toEqual([]);
  });

  it('drops nothing without a token budget, however large the request', () => {
    const fit = fitTokenBudget({
      tools: tools(['a', 5000], ['b', 5000]),
      systemPromptLength: 100_000,
      historyLength: 0,
      tokenBudget: null,
    });

    expect(names(fit.tools)).toEqual(['a', 'b']);
  });

  it('drops nothing when the request fits, the budget itself included', () => {
    const fit = fitTokenBudget({ tools: tools(['a', 100], ['b', 100]), systemPromptLength: 400, historyLength: 0, tokenBudget: 300 });

    expect(names(fit.tools)).toEqual(['a', 'b']);
    expect(fit).toMatchObject({ estimatedTokens: 300, fits: true, dropped: [] });
  });

  it('drops tools from the end, one at a time, until the request fits', () => {
    const fit = fitTokenBudget({
      tools: tools(['best', 100], ['second', 100], ['third', 100], ['worst', 100]),
      systemPromptLength: 0,
      historyLength: 800,
      tokenBudget: 450,
    });

    expect(names(fit.tools)).toEqual(['best', 'second']);
    expect(fit.dropped).toEqual(['worst', 'third']);
    expect(fit).toMatchObject({ estimatedTokens: 400, fits: true });
  });

  it('keeps at least one routed tool, even when the request still does not fit', () => {
    const fit = fitTokenBudget({
      tools: tools(['best', 500], ['next', 500]),
      systemPromptLength: 0,
      historyLength: 40_000,
      tokenBudget: 3000,
    });

    expect(names(fit.tools)).toEqual(['best']);
    expect(fit).toMatchObject({ dropped: ['next'], estimatedTokens: 10_500, fits: false });
  });

  it('never drops an always-included tool, wherever it stands', () => {
    const fit = fitTokenBudget({
      tools: tools(['routed_a', 100], ['routed_b', 100], ['file_read', 100], ['file_edit', 100]),
      alwaysIncluded: ['file_read', 'file_edit'],
      systemPromptLength: 0,
      historyLength: 0,
      tokenBudget: 150,
    });

    expect(names(fit.tools)).toEqual(['routed_a', 'file_read', 'file_edit']);
    expect(fit).toMatchObject({ dropped: ['routed_b'], estimatedTokens: 300, fits: false });
  });

  it('returns an empty fit for no tools', () => {
    expect(fitTokenBudget({ tools: [], systemPromptLength: 8, historyLength: 0, tokenBudget: 1 })).toEqual({
      tools: [],
      dropped: [],
      estimatedTokens: 2,
      fits: false,
    });
  });

  it('drops the lowest-ranked first after the router ranked, and the last registered when it did not', () => {
    const registered = ['zeta_tool', 'archive_note', 'delete_note', 'alpha_tool', 'beta_tool', 'gamma_tool'].map((name) => ({
      name,
      description: '',
      routing: name === 'delete_note' ? { intents: ['delete'] } : name === 'archive_note' ? { domains: ['note'] } : null,
    }));
    const router = new ToolRouter();
    const fitOf = (ranking: readonly string[]) =>
      fitTokenBudget({ tools: ranking.map((name) => ({ name, tokens: 100 })), systemPromptLength: 0, historyLength: 0, tokenBudget: 200 });

    const ranked = router.route(registered, 'delete this note', { budget: 3, profile: 'full' });
    expect(ranked.ranking).toEqual(['delete_note', 'archive_note', 'alpha_tool']);
    expect(names(fitOf(ranked.ranking).tools)).toEqual(['delete_note', 'archive_note']);

    const unranked = router.route(registered, 'use gamma_tool', { budget: 6, profile: 'full' });
    expect(unranked.ranked).toBe(false);
    expect(fitOf(unranked.ranking).dropped).toEqual(['gamma_tool', 'beta_tool', 'alpha_tool', 'delete_note']);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a negative history length', { historyLength: -1 }],
    ['a non-finite system prompt length', { systemPromptLength: Number.NaN }],
    ['a negative token budget', { tokenBudget: -5 }],
    ['a negative tool estimate', { tools: tools(['a', -3]) }],
    ['tools that are not an array', { tools: 'a' }],
  ])('throws INVALID_ARGUMENT for %s', (_case, override) => {
    const request = { tools: tools(['a', 1]), systemPromptLength: 0, historyLength: 0, tokenBudget: 10, ...override };

    expect(() => fitTokenBudget(request as Parameters<typeof fitTokenBudget>[0])).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('keeps a prefix of the routed tools and every always-included tool, and fits whenever dropping could make it fit', () => {
    const entry = fc.record({ tokens: fc.nat(500), always: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 12 }),
        fc.nat(4000),
        fc.nat(4000),
        fc.option(fc.nat(3000)),
        (entries, system, history, budget) => {
          const list = entries.map((item, index) => ({ name: `t${index}`, tokens: item.tokens }));
          const alwaysIncluded = entries.flatMap((item, index) => (item.always ? [`t${index}`] : []));
          const fit = fitTokenBudget({
            tools: list,
            alwaysIncluded,
            systemPromptLength: system,
            historyLength: history,
            tokenBudget: budget,
          });
          const routed = list.filter((item) => !alwaysIncluded.includes(item.name));
          const keptRouted = fit.tools.filter((item) => !alwaysIncluded.includes(item.name));

          expect(keptRouted).toEqual(routed.slice(0, keptRouted.length));
          expect(names(fit.tools)).toEqual(expect.arrayContaining(alwaysIncluded));
          if (routed.length > 0) expect(keptRouted.length).toBeGreaterThanOrEqual(1);
          expect(fit.estimatedTokens).toBe(Math.ceil((system + history) / 4) + fit.tools.reduce((sum, item) => sum + item.tokens, 0));
          if (!fit.fits) expect(keptRouted.length).toBeLessThanOrEqual(1);
          if (fit.dropped.length > 0 && fit.fits) {
            // Dropping stopped as soon as the request fitted: the last tool dropped was needed.
            const lastDropped = list.find((item) => item.name === fit.dropped.at(-1)) as TokenBudgetTool;
            expect(fit.estimatedTokens + lastDropped.tokens).toBeGreaterThan(budget as number);
          }
        },
      ),
    );
  });
});
