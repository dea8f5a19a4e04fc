import { InvocationDecision, ToolContext, Type, defineTool, invocationTarget, type InvocationRule } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../registry/tool-registry.js';
import type { ToolRegistryOptions } from '../../registry/tool-registry-options.js';

const allow = (identifier: string, extra: Partial<InvocationRule> = {}): InvocationRule => ({
  identifier,
  evaluate: () => InvocationDecision.allow(),
  ...extra,
});
const resolver = { resolve: () => invocationTarget('note', 'n1') };

function stepsOf(options: ToolRegistryOptions, context: ToolContext, confirm = false) {
  const registry = new ToolRegistry(options);
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'd',
      input: Type.Object({}),
      mutating: true,
      requiresConfirmation: confirm,
      handler: () => 'ok',
    }),
  );
  const plan = registry.inspect('delete_note', context)!;
  return { rules: plan.getStep('rules'), replay: plan.getStep('rules_replay') };
}

const web = (runId: string | null = null) => new ToolContext({ principal: 'u', channel: 'web', runId });

describe('rulesStage', () => {
  describe('describe', () => {
    it('is skipped, and cannot stop the call, without rules', () => {
      const { rules, replay } = stepsOf({}, web());
      expect(rules).toMatchObject({ presence: 'skipped', blocking: false, role: 'guard', mutates: false });
      expect(rules.source).toBe('no invocation rule applies to this tool: nothing is evaluated');
      expect(replay).toMatchObject({ presence: 'skipped', blocking: false });
      expect(replay.source).toBe('no invocation rule applies to this tool');
    });

    it('is active for resolvers alone only when the call belongs to a run', () => {
      expect(stepsOf({ targetResolvers: [resolver] }, web()).rules.presence).toBe('skipped');
      expect(stepsOf({}, web('run-1')).rules.presence).toBe('skipped');
      const { rules } = stepsOf({ targetResolvers: [resolver] }, web('run-1'));
      expect(rules).toMatchObject({ presence: 'active', blocking: true });
      expect(rules.source).toBe(
        "no invocation rule applies to this tool; 1 target resolver(s) name the call's target for its run's history (two " +
          'claiming it, or one that fails, refuse it)',
      );
    });

    it('lists the rules in order and says history completeness cannot refuse when no rule needs it', () => {
      const { rules } = stepsOf({ rules: [allow('first'), allow('second')] }, web());
      expect(rules).toMatchObject({ presence: 'active', blocking: true });
      expect(rules.source).toBe(
        'invocation rules, in order until one denies: first, second; no target resolver: the target is null; ' +
          'history completeness cannot refuse this call (no rule requires a complete history); ' +
          'a rule that throws or answers something other than a decision refuses the call (rule_failed); denials carry the rule ' +
          'and reason code, never arguments',
      );
    });

    it('says a context without a run is refused by the rules that need a complete history', () => {
      const { rules } = stepsOf(
        { rules: [allow('count', { requiresCompleteHistory: true })], targetResolvers: [resolver, resolver] },
        web(),
      );
      expect(rules.source).toBe(
        'invocation rules, in order until one denies: count (requires complete history); ' +
          '2 target resolver(s); two claiming the call, or one that fails, refuse it; ' +
          'history completeness refuses this call: the context has no run, so ' +
          'its history is incomplete and count refuse it (history_incomplete); ' +
          'a rule that throws or answers something other than a decision refuses the call (rule_failed); denials carry the rule ' +
          'and reason code, never arguments',
      );
    });

    it('says a run proves its history only when the store opened it', () => {
      const { rules } = stepsOf({ rules: [allow('count', { requiresCompleteHistory: true })] }, web('run-9'));
      expect(rules.source).toContain(
        "history completeness can refuse this call: count require a complete history, which run 'run-9' has only if the history " +
          'store opened it and recorded every call since',
      );
    });

    it('leaves out rules for other tools', () => {
      const { rules } = stepsOf({ rules: [allow('elsewhere', { tools: ['other_tool'] })] }, web());
      expect(rules.presence).toBe('skipped');
    });

    it("says a call of a run takes its place in the run's history when the registry has rules, even for other tools", () => {
      const mine = stepsOf({ rules: [allow('count')] }, web('run-9')).rules;
      expect(mine.source).toContain(
        "the call first takes its place in run 'run-9's history, so it and " +
          'the calls of the run ahead of it, still in flight, see each other',
      );
      const other = stepsOf({ rules: [allow('elsewhere', { tools: ['other_tool'] })] }, web('run-9')).rules;
      expect(other).toMatchObject({ presence: 'active', blocking: true });
      expect(other.source).toMatch(
        /^no invocation rule applies to this tool; the call first takes its place in run 'run-9's history.*for the rules of other tools$/,
      );
      expect(stepsOf({ rules: [allow('count')] }, web()).rules.source).not.toContain('takes its place');
    });

    it('describes the replay step as dormant when the call is never confirmed, and conditional when it may be', () => {
      const never = stepsOf({ rules: [allow('r')] }, web()).replay;
      expect(never).toMatchObject({ presence: 'dormant', blocking: false });
      expect(never.source).toBe('this call is never confirmed, so the rules run once, after authorize');
      const confirmed = stepsOf({ rules: [allow('r')] }, web(), true).replay;
      expect(confirmed).toMatchObject({ presence: 'conditional', blocking: true });
      expect(
        confirmed.source.startsWith(
          'on a confirmation replay the rules run here instead of after authorize, over the redeemed arguments that will ' +
            'execute: invocation rules, in order until one denies: r;',
        ),
      ).toBe(true);
      const telegram = stepsOf({ rules: [allow('r')] }, ToolContext.telegram(1, 'u')).replay;
      expect(telegram.presence).toBe('conditional');
    });
  });

  describe('run', () => {
    it('judges the first call of a confirmable tool before any token is minted', async () => {
      const registry = new ToolRegistry({ rules: [{ identifier: 'never', evaluate: () => InvocationDecision.deny('no') }] });
      registry.register(
        defineTool({ name: 'delete_note', description: 'd', input: Type.Object({}), requiresConfirmation: true, handler: () => 'ok' }),
      );
      const first = await registry.call('delete_note', {}, ToolContext.cli());
      expect(first.requiresConfirmation()).toBe(false);
      expect(first.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'never', reason: 'no' });
    });

    it('names the invocation rules when they fail closed', async () => {
      const registry = new ToolRegistry({
        rules: [{ identifier: 'r', evaluate: () => InvocationDecision.allow() }],
        historyStore: {
          startRun: () => true,
          append: () => undefined,
          load: () => null,
          reserve: () => {
            throw new Error('store down');
          },
          settle: () => undefined,
        },
      });
      registry.register(defineTool({ name: 'delete_note', description: 'd', input: Type.Object({}), handler: () => 'ok' }));
      const result = await registry.call('delete_note', {}, ToolContext.cli().with({ runId: 'run-1' }));
      expect(result.error).toBe('Tool call refused: the invocation rules failed (fail-closed): store down');
    });

    it('runs the rules after authorize for a plan-mode call that carries a token, since confirm never redeems it', async () => {
      const registry = new ToolRegistry({ rules: [{ identifier: 'never', evaluate: () => InvocationDecision.deny('no') }] });
      registry.register(
        defineTool({ name: 'delete_note', description: 'd', input: Type.Object({}), requiresConfirmation: true, handler: () => 'ok' }),
      );
      const result = await registry.call('delete_note', {}, ToolContext.cli().asPlan(), { confirmToken: 'abc' });
      expect(result.meta).toMatchObject({ rule: 'never', reason: 'no' });
    });
  });
});
