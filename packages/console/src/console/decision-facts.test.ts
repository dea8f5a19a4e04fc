import { defineTool, Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { readDecisionFacts, withCatalogFacts } from './decision-facts.js';

describe('readDecisionFacts', () => {
  it('reads the facts the approval gate stored', () => {
    expect(
      readDecisionFacts({
        description: 'Deletes a note.',
        hints: { mutating: true, destructive: true, mutability: 'depends_on_arguments' },
        target: { kind: 'note', id: 'n1' },
        reason: 'Asked by the user.',
      }),
    ).toEqual({
      description: 'Deletes a note.',
      hints: { mutating: true, destructive: true, mutability: 'depends_on_arguments' },
      target: { kind: 'note', id: 'n1' },
      reason: 'Asked by the user.',
    });
  });

  it('reads malformed or forged fields as unknown, never as a guess', () => {
    expect(
      readDecisionFacts({
        description: { html: '<b>x</b>' },
        hints: { mutating: 'no', destructive: false },
        target: { kind: ['note'], id: 'n1' },
        reason: 42,
      }),
    ).toEqual({ description: null, hints: null, target: null, reason: null });
    expect(readDecisionFacts({ hints: { mutating: false, destructive: false, mutability: 'sometimes' } }).hints).toEqual({
      mutating: false,
      destructive: false,
      mutability: null,
    });
  });

  it('cuts a reason or description longer than 2,000 characters', () => {
    const facts = readDecisionFacts({ reason: 'r'.repeat(10_000), description: 'd'.repeat(3_000) });
    expect(facts.reason).toBe(`${'r'.repeat(2_000)}… (10000 characters)`);
    expect(facts.description).toBe(`${'d'.repeat(2_000)}… (3000 characters)`);
  });
});

describe('withCatalogFacts', () => {
  const tool = defineTool({
    name: 'archive',
    description: 'Archives a note.',
    input: Type.Object({ dry: Type.Boolean() }),
    mutating: (args: { dry: boolean }) => !args.dry,
    handler: () => null,
  });

  it('fills the description and hints a payload lacks from the tool definition', () => {
    const facts = withCatalogFacts(readDecisionFacts({}), tool);
    expect(facts.description).toBe('Archives a note.');
    expect(facts.hints).toEqual({ mutating: true, destructive: true, mutability: 'depends_on_arguments' });
  });

  it('keeps what the payload holds, and everything without a definition', () => {
    const stored = readDecisionFacts({ description: 'As held.', hints: { mutating: true, destructive: false, mutability: 'mutating' } });
    expect(withCatalogFacts(stored, tool)).toEqual(stored);
    expect(withCatalogFacts(stored, null)).toBe(stored);
  });
});
