import { ToolContext, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Found by test/properties/call-hostile-input.test.ts: a plan-mode result carried the caller's
// arguments verbatim, so arguments an in-process caller can build but JSON cannot hold (a cycle, a
// big integer, 20,000 levels of nesting, one object shared along every path) made the result
// impossible to serialize — or, shared, enormous.
function planRegistry(): ToolRegistry {
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
  registry.register(defineTool({ name: 'save', description: 'Saves anything', handler: () => 'saved' }));
  return registry;
}

function planArgsOf(json: string): unknown {
  return (JSON.parse(json) as { data: { plan: { args: unknown } } }).data.plan.args;
}

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic['self'] = cyclic;
let deep: Record<string, unknown> = { leaf: true };
for (let level = 0; level < 20_000; level += 1) deep = { next: deep };
let shared: Record<string, unknown> = { leaf: 'end' };
for (let level = 0; level < 20; level += 1) shared = { left: shared, right: shared };

describe('ToolRegistry', () => {
  describe('call (regression: plan-mode args that JSON cannot hold)', () => {
    it.each([
      ['a cycle', cyclic],
      ['a big integer', { amount: 10n ** 30n }],
      ['20,000 levels of nesting', deep],
      ['one object shared along every path', shared],
    ])('returns a plan that serializes, within 2 MB, when the args hold %s', async (_label, args) => {
      const result = await planRegistry().call('save', args, ToolContext.cli().asPlan());
      expect(result.success).toBe(true);
      const json = JSON.stringify(result);
      expect(json.length).toBeLessThan(2_000_000);
      expect(planArgsOf(json)).toBeTypeOf('object');
    });

    it('keeps ordinary args verbatim in the plan', async () => {
      const args = { title: 'Notes', tags: ['a', 'b'], password: 'hunter2' };
      const result = await planRegistry().call('save', args, ToolContext.cli().asPlan());
      expect(planArgsOf(JSON.stringify(result))).toEqual(args);
    });
  });
});
