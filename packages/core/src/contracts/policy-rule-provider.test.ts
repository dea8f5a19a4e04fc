import { describe, expectTypeOf, it } from 'vitest';
import type { PolicyRule, PolicyRuleProvider } from './policy-rule-provider.js';

describe('PolicyRuleProvider', () => {
  it('accepts synchronous and asynchronous providers', () => {
    type Lookup = (channel: string, principal: string | null, toolName: string, mutating: boolean) => PolicyRule | null;

    expectTypeOf<{ findMatchingRule: Lookup }>().toExtend<PolicyRuleProvider>();
    expectTypeOf<{ findMatchingRule: (...args: Parameters<Lookup>) => Promise<PolicyRule | null> }>().toExtend<PolicyRuleProvider>();
  });

  it('describes a rule by id, effect, required scopes and description', () => {
    expectTypeOf<{ id: 7; effect: 'deny'; requiresScopes: string[]; description: null }>().toExtend<PolicyRule>();
    expectTypeOf<{ id: 7; effect: 'deny' }>().not.toExtend<PolicyRule>();
  });
});
