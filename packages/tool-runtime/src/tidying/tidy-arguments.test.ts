import { Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { tidyArguments } from './tidy-arguments.js';

const schema = Type.Object({
  query: Type.String(),
  status: Type.Optional(Type.String()),
  mode: Type.Optional(Type.Union([Type.Literal('*'), Type.Literal('exact')])),
  scope: Type.Optional(Type.String({ enum: ['%', 'all'] })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  ratio: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  label: Type.Optional(Type.String()),
  required_count: Type.Integer({ minimum: 0 }),
}) as unknown as Record<string, unknown>;

describe('tidyArguments', () => {
  it.each([
    ['null', null],
    ['an empty string', ''],
    ['a blank string', '   '],
    ['*', '*'],
    ['%', '%'],
  ])('drops an optional argument sent as %s', (_label, value) => {
    const outcome = tidyArguments({ query: 'q', required_count: 1, status: value }, schema);
    expect(outcome.args).toEqual({ query: 'q', required_count: 1 });
    expect(outcome.changes).toEqual([{ field: 'status', action: 'dropped' }]);
  });

  it('keeps an optional * or % that is one of the enum values (enum or const)', () => {
    expect(tidyArguments({ query: 'q', required_count: 1, scope: '%' }, schema).changes).toEqual([]);
    const constSchema = { type: 'object', properties: { mode: { const: '*' } } };
    expect(tidyArguments({ mode: '*' }, constSchema).changes).toEqual([]);
  });

  it('passes a required argument through as sent, even null or blank', () => {
    const args = { query: '', required_count: null };
    const outcome = tidyArguments(args, schema);
    expect(outcome.args).toBe(args);
    expect(outcome.changes).toEqual([]);
  });

  it('sets optional numbers outside minimum or maximum to the bound', () => {
    const outcome = tidyArguments({ query: 'q', page: 500, ratio: -0.5, required_count: 1 }, schema);
    expect(outcome.args).toEqual({ query: 'q', page: 50, ratio: 0, required_count: 1 });
    expect(outcome.changes).toEqual([
      { field: 'page', action: 'bounded' },
      { field: 'ratio', action: 'bounded' },
    ]);
  });

  it('never moves a required number to a bound, so an out-of-range id cannot act on another record', () => {
    const outcome = tidyArguments({ query: 'q', required_count: -3 }, schema);
    expect(outcome.args).toEqual({ query: 'q', required_count: -3 });
    expect(outcome.changes).toEqual([]);
    const converted = tidyArguments({ query: 'q', required_count: '-3' }, schema);
    expect(converted.args).toEqual({ query: 'q', required_count: -3 });
    expect(converted.changes).toEqual([{ field: 'required_count', action: 'converted' }]);
  });

  it('converts numeric strings for integer and number properties, then bounds them', () => {
    const outcome = tidyArguments({ query: 'q', required_count: '3', page: ' 70 ', ratio: '0.25' }, schema);
    // required_count is converted (same value) but, being required, never bounded.
    expect(outcome.args).toEqual({ query: 'q', required_count: 3, page: 50, ratio: 0.25 });
    expect(outcome.changes).toEqual([
      { field: 'required_count', action: 'converted' },
      { field: 'page', action: 'converted' },
      { field: 'page', action: 'bounded' },
      { field: 'ratio', action: 'converted' },
    ]);
  });

  it('leaves strings that are not numbers, fractions for integers and strings for string properties', () => {
    const args = { query: '12', required_count: 1, page: '2.5', ratio: 'half', label: '42' };
    const outcome = tidyArguments(args, schema);
    expect(outcome.args).toBe(args);
    expect(outcome.changes).toEqual([]);
  });

  it('passes unknown arguments through untouched, even null or *', () => {
    const args = { query: 'q', required_count: 1, unknown: null, other: '*' };
    expect(tidyArguments(args, schema)).toEqual({ args, changes: [] });
  });

  it('never changes the caller object, and lists field and action only', () => {
    const args = Object.freeze({ query: 'q', required_count: 1, status: '*', page: 99 });
    const outcome = tidyArguments(args, schema);
    expect(args).toEqual({ query: 'q', required_count: 1, status: '*', page: 99 });
    expect(JSON.stringify(outcome.changes)).not.toContain('99');
  });

  it('does nothing without declared properties', () => {
    const args = { a: null };
    expect(tidyArguments(args, { type: 'object' }).args).toBe(args);
  });
});

describe('tidyArguments: never widening a call', () => {
  const guarded = Type.Object({
    tag: Type.Optional(Type.String({ 'x-milpa-protected': true })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, 'x-milpa-protected': true })),
    user_id: Type.Optional(Type.Integer({ minimum: 2 })),
    noteIds: Type.Optional(Type.Array(Type.Integer())),
    ownerId: Type.Optional(Type.String()),
    status: Type.Optional(Type.String()),
  }) as unknown as Record<string, unknown>;

  it.each([
    ['*', '*'],
    ['%', '%'],
    ['all', 'all'],
    ['an empty string', ''],
    ['a blank string', '  '],
    ['null', null],
  ])('keeps a protected filter sent as %s exactly as sent', (_label, value) => {
    const args = { tag: value };
    const outcome = tidyArguments(args, guarded);
    expect(outcome.args).toBe(args);
    expect(outcome.changes).toEqual([]);
  });

  it('neither converts nor bounds a protected number', () => {
    expect(tidyArguments({ limit: '5' }, guarded).args).toEqual({ limit: '5' });
    expect(tidyArguments({ limit: 500 }, guarded).args).toEqual({ limit: 500 });
    expect(tidyArguments({ limit: 0 }, guarded).changes).toEqual([]);
  });

  it('never moves an optional identifier to its minimum (user_id 1 stays 1 for validation to refuse)', () => {
    const outcome = tidyArguments({ user_id: 1 }, guarded);
    expect(outcome.args).toEqual({ user_id: 1 });
    expect(outcome.changes).toEqual([]);
  });

  it('converts an identifier sent as a numeric string, without moving it to the bound', () => {
    const outcome = tidyArguments({ user_id: '1' }, guarded);
    expect(outcome.args).toEqual({ user_id: 1 });
    expect(outcome.changes).toEqual([{ field: 'user_id', action: 'converted' }]);
  });

  it.each([
    ['user_id', null],
    ['user_id', '*'],
    ['noteIds', null],
    ['ownerId', '%'],
    ['ownerId', ''],
  ])('never drops the identifier %s sent as %j', (field, value) => {
    const args = { [field]: value };
    const outcome = tidyArguments(args, guarded);
    expect(outcome.args).toEqual(args);
    expect(outcome.changes).toEqual([]);
  });

  it('still drops an unprotected, non-identifier filter beside them', () => {
    const outcome = tidyArguments({ tag: '*', status: '*', user_id: 1 }, guarded);
    expect(outcome.args).toEqual({ tag: '*', user_id: 1 });
    expect(outcome.changes).toEqual([{ field: 'status', action: 'dropped' }]);
  });
});
