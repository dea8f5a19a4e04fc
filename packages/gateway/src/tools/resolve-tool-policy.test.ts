import { describe, expect, it } from 'vitest';
import { isMutatingByAnnotations, resolveToolPolicy } from './resolve-tool-policy.js';

const GATEWAY = { maxResultTokens: 2_500, timeoutMs: 60_000 };

describe('isMutatingByAnnotations', () => {
  it('is false only for a tool marked read-only and not destructive', () => {
    expect(isMutatingByAnnotations({ readOnlyHint: true })).toBe(false);
    expect(isMutatingByAnnotations({ readOnlyHint: true, destructiveHint: true })).toBe(true);
    expect(isMutatingByAnnotations({ destructiveHint: false })).toBe(true);
    expect(isMutatingByAnnotations({ readOnlyHint: false })).toBe(true);
    expect(isMutatingByAnnotations(undefined)).toBe(true);
  });
});

describe('resolveToolPolicy', () => {
  it('falls back to the annotations and the gateway defaults', () => {
    expect(resolveToolPolicy({ annotations: { readOnlyHint: true } }, undefined, undefined, GATEWAY)).toEqual({
      scopes: [],
      mutating: false,
      requiresConfirmation: false,
      approval: null,
      rateCost: null,
      maxResultTokens: 2_500,
      timeoutMs: 60_000,
    });
  });

  it("lets the upstream's defaults override the annotations, and the tool's settings override both", () => {
    const policy = resolveToolPolicy(
      { annotations: { readOnlyHint: true } },
      { scopes: ['a'], mutating: true, maxResultTokens: 100, approval: 'terminal' },
      { scopes: ['b'], maxResultTokens: 0, rateCost: 7, timeoutMs: 5 },
      GATEWAY,
    );
    expect(policy).toEqual({
      scopes: ['b'],
      mutating: true,
      requiresConfirmation: false,
      approval: 'terminal',
      rateCost: 7,
      maxResultTokens: 0,
      timeoutMs: 5,
    });
  });

  it('can declare an annotated destructive tool read-only', () => {
    expect(resolveToolPolicy({ annotations: { destructiveHint: true } }, undefined, { mutating: false }, GATEWAY).mutating).toBe(false);
  });
});
