import { Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { applicableClamps } from './applicable-clamps.js';

const schema = Type.Object({
  page: Type.Optional(Type.Integer()),
  user_id: Type.Optional(Type.Integer()),
  depth: Type.Optional(Type.Integer({ 'x-milpa-protected': true })),
}) as unknown as Record<string, unknown>;

describe('applicableClamps', () => {
  it('keeps clamps on ordinary fields and leaves out identifiers and protected fields', () => {
    const outcome = applicableClamps({ page: { min: 1, max: 9 }, user_id: { min: 2 }, depth: { max: 3 }, noteIds: { max: 1 } }, schema);
    expect(outcome.clamps).toEqual({ page: { min: 1, max: 9 } });
    expect(outcome.skipped).toEqual(['user_id', 'depth', 'noteIds']);
    expect(Object.isFrozen(outcome.clamps)).toBe(true);
  });

  it('answers null when no clamp remains', () => {
    expect(applicableClamps({}, schema)).toEqual({ clamps: null, skipped: [] });
    expect(applicableClamps({ id: { min: 1 } }, schema)).toEqual({ clamps: null, skipped: ['id'] });
  });

  it('keeps a clamp on a field named __proto__ as a plain field', () => {
    const clamps = JSON.parse('{"__proto__": {"max": 1}}') as Record<string, { max: number }>;
    const outcome = applicableClamps(clamps, schema);
    expect(Object.hasOwn(outcome.clamps ?? {}, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(outcome.clamps)).toBe(Object.prototype);
  });
});
