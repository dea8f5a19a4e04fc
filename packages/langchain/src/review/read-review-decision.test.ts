import { describe, expect, it } from 'vitest';
import { readReviewDecision } from './read-review-decision.js';

describe('readReviewDecision', () => {
  const args = { id: 'n1', tags: ['a', 'b'], options: { hard: true, reason: 'old' } };

  it('reads an approve naming the call, without arguments or with the same ones in any key order', () => {
    expect(readReviewDecision({ decisions: [{ type: 'approve', tool_call_id: 'c1' }] }, 'c1', args)).toEqual({ kind: 'approve' });
    const reordered = { options: { reason: 'old', hard: true }, tags: ['a', 'b'], id: 'n1' };
    expect(readReviewDecision({ decisions: [{ type: 'approve', tool_call_id: 'c1', args: reordered }] }, 'c1', args)).toEqual({
      kind: 'approve',
    });
  });

  it('refuses an approve whose arguments differ anywhere, nested values and array order included', () => {
    const nested = { ...args, options: { hard: false, reason: 'old' } };
    const reordered = { ...args, tags: ['b', 'a'] };
    for (const other of [nested, reordered, { id: 'n1' }]) {
      expect(readReviewDecision({ decisions: [{ type: 'approve', tool_call_id: 'c1', args: other }] }, 'c1', args)).toMatchObject({
        kind: 'refused',
        refusal: 'arguments_changed',
      });
    }
  });

  it('refuses an approve whose arguments JSON cannot hold, even when they are the same object', () => {
    const cyclic: Record<string, unknown> = { id: 'n1' };
    cyclic['self'] = cyclic;

    expect(readReviewDecision({ decisions: [{ type: 'approve', tool_call_id: 'c1', args: cyclic }] }, 'c1', cyclic)).toMatchObject({
      kind: 'refused',
      refusal: 'arguments_changed',
    });
    expect(readReviewDecision({ decisions: [{ type: 'approve', tool_call_id: 'c1', args: { n: 1n } }] }, 'c1', { n: 1n })).toMatchObject({
      kind: 'refused',
    });
  });

  it('reads a reject, whatever call it names, with its message or none', () => {
    expect(readReviewDecision({ decisions: [{ type: 'reject', message: 'No.' }] }, 'c1', args)).toEqual({ kind: 'reject', message: 'No.' });
    expect(readReviewDecision({ decisions: [{ type: 'reject', tool_call_id: 'c9', message: '  ' }] }, 'c1', args)).toEqual({
      kind: 'reject',
      message: null,
    });
  });

  it('refuses anything that is not one decision', () => {
    for (const value of [null, undefined, 42, [], { decisions: 'approve' }, { decisions: [null] }]) {
      expect(readReviewDecision(value, 'c1', args)).toMatchObject({ kind: 'refused', refusal: 'invalid_decision' });
    }
  });
});
