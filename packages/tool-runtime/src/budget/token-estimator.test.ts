import type { JsonSchema, ToolSummary } from '@milpa/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
});
import { DEFAULT_MODEL_LIMIT, MODEL_LIMITS, RECOMMENDED_TOOL_BUDGET_PERCENT } from './model-limits.js';
import { TokenEstimator } from './token-estimator.js';
import { RecordingLogger } from '../../test/support/recording-logger.js';

function summary(name: string, description = 'Does something', inputSchema: JsonSchema = { type: 'object' }): ToolSummary {
  return { name, description, inputSchema };
}

const long = 'descripción larga '.repeat(200);
const twentyLongTools = Array.from({ length: 20 }, (_, index) => summary(`tool${index + 1}`, long));

describe('TokenEstimator', () => {
  describe('estimateTokens', () => {
    it('rounds four characters per token up when the text is ASCII', () => {
      const estimator = new TokenEstimator();
      expect(estimator.estimateTokens('')).toBe(0);
      expect(estimator.estimateTokens('abc')).toBe(1);
      expect(estimator.estimateTokens('abcd')).toBe(1);
      expect(estimator.estimateTokens('abcde')).toBe(2);
      expect(estimator.estimateTokens('x'.repeat(100))).toBe(25);
    });

    it('counts UTF-8 bytes, not characters, when the text is not ASCII', () => {
      const estimator = new TokenEstimator();
      expect(estimator.estimateTokens('ñ')).toBe(1);
      expect(estimator.estimateTokens('ñññ')).toBe(2);
      expect(estimator.estimateTokens('€€€')).toBe(3);
      expect(estimator.estimateTokens('😀😀')).toBe(2);
    });

    it('agrees with Buffer.byteLength for any UTF-16 string, lone surrogates included', () => {
      const estimator = new TokenEstimator();
      const anyUtf16 = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 }).map((codes) => String.fromCharCode(...codes));
      fc.assert(fc.property(anyUtf16, (text) => estimator.estimateTokens(text) === Math.ceil(Buffer.byteLength(text, 'utf8') / 4)));
    });

    it('throws INVALID_ARGUMENT when given something other than a string', () => {
      expect(() => new TokenEstimator().estimateTokens(42 as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });

  describe('estimateToolTokens', () => {
    it('costs the whole JSON summary when estimated', () => {
      // {"name":"ping","description":"Does something","inputSchema":{"type":"object"}} is 78 bytes.
      expect(new TokenEstimator().estimateToolTokens(summary('ping'))).toBe(20);
    });

    it('costs more when the schema is richer', () => {
      const estimator = new TokenEstimator();
      const rich = summary('ping', 'Does something', {
        type: 'object',
        properties: { host: { type: 'string', description: 'The host to query' } },
      });
      expect(estimator.estimateToolTokens(rich)).toBe(38);
      expect(estimator.estimateToolTokens(rich)).toBeGreaterThan(estimator.estimateToolTokens(summary('ping')));
    });

    it('does not serialize again when the same summary is estimated a second time', () => {
      const estimator = new TokenEstimator();
      const tools = Array.from({ length: 50 }, (_, index) =>
        summary(`tool_${index}`, 'Does something', { type: 'object', properties: { q: { type: 'string' } } }),
      );
      const first = estimator.estimateToolsTokens(tools);
      const stringify = vi.spyOn(JSON, 'stringify');
      expect(estimator.estimateToolsTokens(tools)).toEqual(first);
      expect(estimator.checkToolBudget(tools, 'gpt-4o').used).toBe(first.total);
      expect(stringify).not.toHaveBeenCalled();
    });

    it('serializes a schema once when fresh summaries wrap the same schema object each turn', () => {
      const estimator = new TokenEstimator();
      const schema: JsonSchema = { type: 'object', properties: { host: { type: 'string', description: 'The host to query' } } };
      const first = estimator.estimateToolTokens(summary('ping', 'Does something', schema));
      const stringify = vi.spyOn(JSON, 'stringify');
      expect(estimator.estimateToolTokens(summary('ping', 'Does something', schema))).toBe(first);
      expect(estimator.estimateToolTokens(summary('ping', 'Does something else entirely', schema))).toBeGreaterThan(first);
      expect(stringify).not.toHaveBeenCalled();
    });

    it('keeps tools that share one schema object apart by name', () => {
      const estimator = new TokenEstimator();
      const shared: JsonSchema = { type: 'object', properties: { q: { type: 'string' } } };
      const tools = [summary('a', 'x'), summary('bb', 'x'.repeat(40)), summary('ccc', 'x'.repeat(80))].map((tool) => ({
        ...tool,
        inputSchema: shared,
      }));
      const expected = tools.map((tool) => Math.ceil(JSON.stringify(tool).length / 4));
      expect(tools.map((tool) => estimator.estimateToolTokens(tool))).toEqual(expected);
      const stringify = vi.spyOn(JSON, 'stringify');
      expect(tools.map((tool) => estimator.estimateToolTokens({ ...tool }))).toEqual(expected);
      expect(stringify).not.toHaveBeenCalled();
    });

    it('recomputes when a field of a summary it has seen is replaced', () => {
      const estimator = new TokenEstimator();
      const tool: { name: string; description: string; inputSchema: JsonSchema } = summary('ping');
      expect(estimator.estimateToolTokens(tool)).toBe(20);
      tool.description = 'x'.repeat(400);
      expect(estimator.estimateToolTokens(tool)).toBe(Math.ceil(JSON.stringify(tool).length / 4));
      tool.inputSchema = { type: 'object', properties: { q: { type: 'string' } } };
      expect(estimator.estimateToolTokens(tool)).toBe(Math.ceil(JSON.stringify(tool).length / 4));
    });

    it('agrees with ceil(UTF-8 bytes of JSON.stringify(summary) / 4) for any summary, fresh or cached', () => {
      const estimator = new TokenEstimator();
      const text = fc.oneof(
        fc.string(),
        fc.string({ unit: 'binary' }),
        fc.array(fc.integer({ min: 0, max: 0xffff })).map((codes) => String.fromCharCode(...codes)),
      );
      const anySummary = fc.record(
        {
          name: text,
          description: text,
          inputSchema: fc.jsonValue().map((value) => ({ type: 'object', default: value }) as JsonSchema),
          version: fc.option(text, { nil: undefined }),
          extra: fc.oneof(
            fc.integer(),
            fc.double(),
            fc.boolean(),
            fc.constant(null),
            fc.constant(undefined),
            fc.constant(() => 1),
          ),
        },
        { requiredKeys: ['name', 'description', 'inputSchema'] },
      );
      fc.assert(
        fc.property(anySummary, (tool) => {
          const expected = Math.ceil(Buffer.byteLength(JSON.stringify(tool), 'utf8') / 4);
          const fresh = estimator.estimateToolTokens(tool as ToolSummary);
          const again = estimator.estimateToolTokens({ ...tool } as ToolSummary);
          return fresh === expected && again === expected && estimator.estimateToolTokens(tool as ToolSummary) === expected;
        }),
        { numRuns: 300 },
      );
    });

    it('throws INVALID_ARGUMENT when the tool has no string name', () => {
      expect(() => new TokenEstimator().estimateToolTokens({ description: 'x' } as never)).toThrow(/string name/);
      expect(() => new TokenEstimator().estimateToolTokens(null as never)).toThrow(/string name/);
    });
  });

  describe('estimateToolsTokens', () => {
    it('names every tool and sums them when given a list', () => {
      const estimate = new TokenEstimator().estimateToolsTokens([summary('uno'), summary('dos', 'A longer description here')]);
      expect(Object.keys(estimate.per_tool)).toEqual(['uno', 'dos']);
      expect(estimate.total).toBe(estimate.per_tool['uno']! + estimate.per_tool['dos']!);
    });

    it('returns {total: 0, per_tool: {}} when the list is empty', () => {
      expect(new TokenEstimator().estimateToolsTokens([])).toEqual({ total: 0, per_tool: {} });
    });

    it('counts a tool named __proto__ as an ordinary own entry', () => {
      const estimate = new TokenEstimator().estimateToolsTokens([summary('__proto__')]);
      expect(Object.hasOwn(estimate.per_tool, '__proto__')).toBe(true);
      expect(estimate.per_tool['__proto__']).toBe(estimate.total);
      expect(Object.getPrototypeOf(estimate.per_tool)).toBe(Object.prototype);
    });

    it('sums a repeated name so the total still equals the breakdown', () => {
      const estimate = new TokenEstimator().estimateToolsTokens([summary('twin'), summary('twin')]);
      expect(estimate.per_tool).toEqual({ twin: 40 });
      expect(estimate.total).toBe(40);
    });

    it('throws INVALID_ARGUMENT when the list is not an array', () => {
      expect(() => new TokenEstimator().estimateToolsTokens('ping' as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });
  });

  describe('getModelLimit', () => {
    it.each(Object.entries(MODEL_LIMITS))('returns the exact limit of %s when the id is listed', (model, limit) => {
      expect(new TokenEstimator().getModelLimit(model)).toBe(limit);
    });

    it.each([
      ['gpt-4.1', 1047576],
      ['gpt-4.1-mini-2025-04-14', 1047576],
      ['gpt-4.1-nano', 1047576],
      ['gpt-4o', 128000],
      ['gpt-4o-mini-2024-07-18', 128000],
      ['gpt-4o-2024-05-13', 128000],
      ['gpt-5', 400000],
      ['gpt-5-mini-2025-08-07', 400000],
      ['gpt-5-nano', 400000],
      ['gpt-5-chat-latest', 128000],
      ['o3', 200000],
      ['o3-pro', 200000],
      ['o4-mini-2025-04-16', 200000],
      ['o1-mini', 128000],
      ['claude-sonnet-4-20250514', 200000],
      ['claude-sonnet-4-5', 200000],
      ['claude-opus-4-1-20250805', 200000],
      ['claude-haiku-4-5', 200000],
      ['claude-3-7-sonnet-20250219', 200000],
      ['claude-3-5-haiku-latest', 200000],
      ['claude-3.5-sonnet-20241022', 200000],
      ['claude-sonnet-5-20260101', 200000],
      ['gemini-2.5-pro', 1048576],
      ['gemini-2.5-flash-lite', 1048576],
      ['gemini-2.0-flash-001', 1048576],
      ['gemini-1.5-pro-002', 2097152],
      ['llama-3.1-8b-instant', 128000],
      ['llama-3.3-70b-versatile', 128000],
      ['llama3.1:70b', 128000],
      ['llama3:8b', 8192],
      ['mistral-large-latest', 128000],
      ['deepseek-chat', 128000],
      ['deepseek-reasoner', 64000],
      ['qwen2.5:32b', 32768],
      ['gpt-4', 8192],
      ['gpt-4-0613', 8192],
      ['gpt-4-32k-0613', 32768],
      ['gpt-4-turbo-preview', 128000],
      ['gpt-3.5-turbo', 16385],
      ['gpt-3.5-turbo-0125', 16385],
      ['gpt-3.5-turbo-0613', 4096],
    ])('resolves %s to %i tokens', (model, limit) => {
      expect(new TokenEstimator().getModelLimit(model)).toBe(limit);
    });

    it.each([
      ['GPT-4o-Mini', 128000],
      ['openai/gpt-4.1', 1047576],
      ['models/gemini-2.5-pro', 1048576],
      ['meta-llama/Llama-3.3-70B-Instruct', 128000],
      ['anthropic.claude-3-5-sonnet-20240620-v1:0', 200000],
      ['us.anthropic.claude-sonnet-4-20250514-v1:0', 200000],
    ])('ignores case, a provider path and a vendor prefix when given %s', (model, limit) => {
      expect(new TokenEstimator().getModelLimit(model)).toBe(limit);
    });

    it('matches a key only up to a separator, so gpt-4 never covers a longer word', () => {
      const estimator = new TokenEstimator({ modelLimits: { 'house-model': 1000 } });
      expect(estimator.resolveModelLimit('house-modelx').source).toBe('default');
      expect(estimator.resolveModelLimit('house-model-v2')).toEqual({ limit: 1000, source: 'table', match: 'house-model' });
      expect(estimator.resolveModelLimit('o3x').source).toBe('default');
    });

    it.each(['un-modelo-que-no-existe', '', 'constructor', '__proto__', 'toString'])(
      'falls back to the documented default when %j is not listed',
      (model) => {
        expect(new TokenEstimator().resolveModelLimit(model)).toEqual({ limit: DEFAULT_MODEL_LIMIT, source: 'default', match: null });
      },
    );

    it('throws INVALID_ARGUMENT when the model is not a string', () => {
      expect(() => new TokenEstimator().getModelLimit(undefined as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });

  describe('resolveModelLimit', () => {
    it('warns once per unknown model id, naming the model and the option that fixes it', () => {
      const logger = new RecordingLogger();
      const estimator = new TokenEstimator({ logger });
      estimator.getModelLimit('mystery-model');
      estimator.getToolBudget('mystery-model');
      estimator.checkToolBudget([summary('ping')], 'mystery-model');
      estimator.getModelLimit('other-mystery');
      expect(logger.messages('warn')).toEqual([
        '[TokenEstimator] Unknown model "mystery-model": assuming a 128000-token context window. Pass contextWindow to state the real one.',
        '[TokenEstimator] Unknown model "other-mystery": assuming a 128000-token context window. Pass contextWindow to state the real one.',
      ]);
      expect(logger.lines.find((line) => line.level === 'warn')?.context).toEqual({ model: 'mystery-model', context_window: 128000 });
    });

    it('does not warn when the model is listed or a context window is given', () => {
      const logger = new RecordingLogger();
      const estimator = new TokenEstimator({ logger });
      estimator.getModelLimit('gpt-5');
      estimator.getModelLimit('mystery-model', { contextWindow: 32000 });
      new TokenEstimator({ logger, contextWindow: 32000 }).getModelLimit('mystery-model');
      expect(logger.messages('warn')).toEqual([]);
    });

    it('lets a per-call contextWindow win over the estimator option, and the option over the table', () => {
      const estimator = new TokenEstimator({ contextWindow: 50000 });
      expect(estimator.resolveModelLimit('gpt-4.1')).toEqual({ limit: 50000, source: 'context-window', match: null });
      expect(estimator.getModelLimit('gpt-4.1', { contextWindow: 20000 })).toBe(20000);
      expect(new TokenEstimator().getModelLimit('gpt-4.1', { contextWindow: 20000 })).toBe(20000);
      expect(new TokenEstimator().getToolBudget('my-finetune', { contextWindow: 32000 })).toBe(9600);
    });

    it('reports the table key that matched', () => {
      expect(new TokenEstimator().resolveModelLimit('gpt-4o-mini-2024-07-18')).toEqual({
        limit: 128000,
        source: 'table',
        match: 'gpt-4o-mini',
      });
    });

    it.each([0, -1, 1.5, Number.NaN, '100'])('throws INVALID_ARGUMENT when contextWindow is %j', (limit) => {
      expect(() => new TokenEstimator().getModelLimit('gpt-4', { contextWindow: limit as number })).toThrow(/contextWindow/);
      expect(() => new TokenEstimator({ contextWindow: limit as number })).toThrow(/contextWindow/);
    });
  });

  describe('constructor', () => {
    it('adds and overrides limits, prefixes included, when modelLimits are given', () => {
      const estimator = new TokenEstimator({ modelLimits: { 'my-model': 1000, 'gpt-4': 10000, 'Upper-Case': 2000 } });
      expect(estimator.getModelLimit('my-model')).toBe(1000);
      expect(estimator.getModelLimit('my-model-v2')).toBe(1000);
      expect(estimator.getModelLimit('gpt-4')).toBe(10000);
      expect(estimator.getModelLimit('gpt-4o')).toBe(128000);
      expect(estimator.getModelLimit('upper-case-2')).toBe(2000);
      expect(new TokenEstimator().getModelLimit('gpt-4')).toBe(8192);
    });

    it('uses the given fallback when defaultModelLimit is set', () => {
      expect(new TokenEstimator({ defaultModelLimit: 4000 }).getModelLimit('mystery')).toBe(4000);
    });

    it.each([0, -1, 1.5, Number.NaN, '100'])('throws INVALID_ARGUMENT when a limit is %j', (limit) => {
      expect(() => new TokenEstimator({ modelLimits: { bad: limit as number } })).toThrow(
        /modelLimits\['bad'\] must be a positive integer/,
      );
      expect(() => new TokenEstimator({ defaultModelLimit: limit as number })).toThrow(/defaultModelLimit/);
    });

    it('leaves MODEL_LIMITS untouched when options override them', () => {
      new TokenEstimator({ modelLimits: { 'gpt-4': 1 } });
      expect(MODEL_LIMITS['gpt-4']).toBe(8192);
      expect(Object.isFrozen(MODEL_LIMITS)).toBe(true);
      expect(DEFAULT_MODEL_LIMIT).toBe(128000);
    });

    it('lists every table key in lower case, so a case-insensitive match can find it', () => {
      for (const key of Object.keys(MODEL_LIMITS)) expect(key).toBe(key.toLowerCase());
    });
  });

  describe('getToolBudget', () => {
    it('is floor(30 % of the limit) when computed', () => {
      const estimator = new TokenEstimator();
      expect(RECOMMENDED_TOOL_BUDGET_PERCENT).toBe(30);
      expect(estimator.getToolBudget('gpt-3.5-turbo-0613')).toBe(1228);
      expect(estimator.getToolBudget('gpt-4')).toBe(2457);
      expect(estimator.getToolBudget('claude-opus')).toBe(60000);
      expect(estimator.getToolBudget('gpt-4.1')).toBe(314272);
    });
  });

  describe('checkToolBudget', () => {
    it('fits with no overflow and a tiny percent when a small set meets claude-opus', () => {
      const check = new TokenEstimator().checkToolBudget([summary('ping')], 'claude-opus');
      expect(check).toEqual({ fits: true, used: 20, budget: 60000, percent: 0.03, overflow: 0, model_limit: 200000 });
      expect(Object.keys(check)).toEqual(['fits', 'used', 'budget', 'percent', 'overflow', 'model_limit']);
    });

    it('reports overflow = used - budget and percent > 100 when the set is too big', () => {
      const check = new TokenEstimator().checkToolBudget(twentyLongTools, 'gpt-3.5-turbo-0613');
      expect(check.fits).toBe(false);
      expect(check.overflow).toBe(check.used - check.budget);
      expect(check.overflow).toBeGreaterThan(0);
      expect(check.percent).toBeGreaterThan(100);
    });

    it('fits exactly when used equals the budget', () => {
      // 'ping' costs 20 tokens; a 67-token context gives floor(67 * 0.3) = 20.
      const check = new TokenEstimator({ modelLimits: { exact: 67 } }).checkToolBudget([summary('ping')], 'exact');
      expect(check).toMatchObject({ fits: true, used: 20, budget: 20, percent: 100, overflow: 0 });
    });

    it('reports 100 percent instead of dividing by zero when the budget is 0', () => {
      const check = new TokenEstimator({ modelLimits: { tiny: 1 } }).checkToolBudget([summary('ping')], 'tiny');
      expect(check).toMatchObject({ fits: false, budget: 0, percent: 100, overflow: 20 });
    });
  });

  describe('selectToolsWithinBudget', () => {
    it('keeps list order, names the excluded and stays within the budget when the set is too big', () => {
      const tools = ['primera', 'segunda', 'tercera', 'cuarta'].map((name) => summary(name, long));
      const selection = new TokenEstimator().selectToolsWithinBudget(tools, 'gpt-3.5-turbo-0613');
      expect(selection.selected.map((tool) => tool.name)).toEqual(['primera']);
      expect(selection.excluded).toEqual(['segunda', 'tercera', 'cuarta']);
      expect(selection.tokens_used).toBeLessThanOrEqual(selection.budget);
      expect(selection.selected[0]).toBe(tools[0]);
    });

    it('continues after an exclusion so a later, smaller tool is still kept', () => {
      const tools = [summary('big', long), summary('bigger', long + long), summary('small')];
      const selection = new TokenEstimator().selectToolsWithinBudget(tools, 'gpt-3.5-turbo-0613');
      expect(selection.selected.map((tool) => tool.name)).toEqual(['big', 'small']);
      expect(selection.excluded).toEqual(['bigger']);
    });

    it('excludes nothing when everything fits', () => {
      const selection = new TokenEstimator().selectToolsWithinBudget([summary('uno'), summary('dos')], 'claude-opus');
      expect(selection).toEqual({ selected: [summary('uno'), summary('dos')], excluded: [], tokens_used: 40, budget: 60000 });
    });

    it('excludes one tool larger than the whole budget rather than truncating it', () => {
      const selection = new TokenEstimator().selectToolsWithinBudget([summary('enorme', 'x'.repeat(100000))], 'gpt-3.5-turbo-0613');
      expect(selection).toEqual({ selected: [], excluded: ['enorme'], tokens_used: 0, budget: 1228 });
    });

    it('covers every tool between selected and excluded for any list', () => {
      const estimator = new TokenEstimator({ modelLimits: { small: 400 } });
      const tools = fc
        .array(fc.nat({ max: 400 }), { maxLength: 20 })
        .map((sizes) => sizes.map((size, index) => summary(`t${index}`, 'x'.repeat(size))));
      fc.assert(
        fc.property(tools, (list) => {
          const selection = estimator.selectToolsWithinBudget(list, 'small');
          const names = [...selection.selected.map((tool) => tool.name), ...selection.excluded].sort();
          return (
            names.join() ===
              list
                .map((tool) => tool.name)
                .sort()
                .join() &&
            selection.tokens_used <= selection.budget &&
            selection.tokens_used === estimator.estimateToolsTokens(selection.selected).total
          );
        }),
      );
    });
  });

  describe('getUsageReport', () => {
    it('writes the full report when one small tool meets claude-opus', () => {
      expect(new TokenEstimator().getUsageReport([summary('ping')], 'claude-opus')).toBe(
        [
          '=== Token Usage Report ===',
          'Model: claude-opus',
          'Context Limit: 200000 tokens',
          'Tool Budget (30%): 60000 tokens',
          '',
          'Tools Registered: 1',
          'Tokens Used: 20 tokens',
          'Budget Usage: 0.03%',
          '',
          'Status: ✅ Within budget',
          '',
          'Top 10 Tools by Token Usage:',
          '  - ping: 20 tokens',
        ].join('\n'),
      );
    });

    it('says by how many tokens when the set is over budget', () => {
      const estimator = new TokenEstimator();
      const { overflow } = estimator.checkToolBudget(twentyLongTools, 'gpt-3.5-turbo-0613');
      expect(estimator.getUsageReport(twentyLongTools, 'gpt-3.5-turbo-0613')).toContain(`Status: ⚠️ OVER BUDGET by ${overflow} tokens`);
    });

    it('lists only the ten largest tools, largest first, when there are more', () => {
      const tools = Array.from({ length: 25 }, (_, index) => summary(`tool${index + 1}`, 'x'.repeat((index + 1) * 20)));
      const report = new TokenEstimator().getUsageReport(tools, 'claude-opus');
      const listed = report
        .split('\n')
        .filter((line) => line.startsWith('  - '))
        .map((line) => line.slice(4, line.indexOf(':')));
      expect(listed).toEqual(['tool25', 'tool24', 'tool23', 'tool22', 'tool21', 'tool20', 'tool19', 'tool18', 'tool17', 'tool16']);
      expect(report).not.toContain('- tool1:');
    });

    it('keeps list order among equal costs, numeric names included', () => {
      const report = new TokenEstimator().getUsageReport([summary('bb'), summary('42'), summary('aa')], 'claude-opus');
      expect(report.split('\n').slice(-3)).toEqual(['  - bb: 19 tokens', '  - 42: 19 tokens', '  - aa: 19 tokens']);
    });
  });
});
