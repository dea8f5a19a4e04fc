import { ToolContext, Type, defineTool } from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { SchemaValidator } from '../../src/validation/schema-validator.js';

// Shared, so identical schemas compile once across the runs.
const validator = new SchemaValidator();

const SCOPES = ['notes:read', 'notes:write', 'ops'] as const;
const NAMES = ['t0', 't1', 't2', 't3', 't4', 't5'] as const;

const toolSpec = fc.record({
  scopes: fc.subarray([...SCOPES]),
  // 'per_call': mutating exactly when the call's arguments say `write: true`.
  mutating: fc.constantFrom(true, false, 'per_call' as const),
});

const input = Type.Object({ write: Type.Optional(Type.Boolean()) });

const scenario = fc.record({
  tools: fc.array(toolSpec, { minLength: 1, maxLength: NAMES.length }),
  channel: fc.constantFrom('cli', 'web', 'mcp', 'telegram', 'kiosk', 'pigeon'),
  principal: fc.constantFrom(null, 'user:1', ''),
  scopes: fc.subarray([...SCOPES, '*']),
  deny: fc.subarray([...NAMES, 'missing']),
  ruleDenies: fc.subarray([...NAMES]),
  ruleAllows: fc.subarray([...NAMES]),
});

describe('listing (properties)', () => {
  it('lists, for any caller, policy and deny list, exactly the tools some call would not refuse for who is calling', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ tools, channel, principal, scopes, deny, ruleDenies, ruleAllows }) => {
        const registry = new ToolRegistry({
          validator,
          deny,
          channelPolicies: { kiosk: { block_mutating: true } },
          ruleProvider: {
            findMatchingRule: (_channel, _principal, name) => {
              if (ruleDenies.includes(name as (typeof NAMES)[number]))
                return { id: 1, effect: 'deny', requiresScopes: [], description: null };
              if (ruleAllows.includes(name as (typeof NAMES)[number]))
                return { id: 2, effect: 'allow', requiresScopes: ['notes:read'], description: null };
              return null;
            },
          },
          tools: tools.map((spec, index) =>
            defineTool({
              name: NAMES[index]!,
              description: 'd',
              input,
              scopes: spec.scopes,
              mutating: spec.mutating === 'per_call' ? (args) => args.write === true : spec.mutating,
              handler: () => 'ok',
            }),
          ),
        });
        const context = new ToolContext({ principal, channel, scopes });
        const listed = new Set((await registry.listToolsFor(context)).map((definition) => definition.name));
        for (const name of [...NAMES, 'missing']) {
          // A per-call tool may be callable for reading and refused for writing (block_mutating):
          // it is listed when any of its calls would not be refused.
          const refused = await Promise.all(
            [{}, { write: true }].map(async (args) => {
              const code = (await registry.call(name, args, context)).meta['code'];
              return code === 'FORBIDDEN' || code === 'TOOL_NOT_FOUND';
            }),
          );
          expect(listed.has(name)).toBe(refused.includes(false));
        }
      }),
      { numRuns: 120 },
    );
  });
});
