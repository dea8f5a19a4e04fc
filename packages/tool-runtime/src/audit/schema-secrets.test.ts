import { Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';

const redactor = new Redactor();
const R = REDACTED;

/** Redacts and collects `value` under `schema`, at the top level and wrapped one level down (the full walk). */
function both(value: unknown, schema: object): { copy: unknown; nested: unknown; secrets: string[] } {
  const nested = (redactor.redact({ inner: value }, { type: 'object', properties: { inner: schema } }) as { inner: unknown }).inner;
  return { copy: redactor.redact(value, schema), nested, secrets: redactor.collectSecrets(value, schema) };
}

describe('Redactor schemas', () => {
  it('redacts a property whose schema says format password, at the top level and deeper', () => {
    const schema = Type.Object({
      login: Type.String(),
      pass: Type.String({ format: 'password' }),
      more: Type.Object({ pin: Type.String({ format: 'password' }) }),
    });
    const value = { login: 'ada', pass: 'p-1', more: { pin: 'p-2' } };
    expect(redactor.redact(value, schema)).toEqual({ login: 'ada', pass: R, more: { pin: R } });
    expect(redactor.redact({ login: 'ada', pass: 'p-1' }, schema)).toEqual({ login: 'ada', pass: R });
    expect(redactor.collectSecrets(value, schema)).toEqual(['p-1', 'p-2']);
    expect(redactor.redact({ pass: 'p' }, { properties: { pass: { format: 'email' } } })).toEqual({ pass: 'p' });
  });

  it('redacts array items whose schema is writeOnly, format password or x-milpa-secret', () => {
    for (const marking of [{ writeOnly: true }, { format: 'password' }, { 'x-milpa-secret': true }]) {
      const schema = { type: 'object', properties: { codes: { type: 'array', items: { type: 'string', ...marking } } } };
      const value = { codes: ['c-1', 'c-2'] };
      expect(redactor.redact(value, schema)).toEqual({ codes: [R, R] });
      expect(redactor.collectSecrets(value, schema)).toEqual(['c-1', 'c-2']);
    }
  });

  it('redacts writeOnly items of a top-level array, of a Set, and of arrays in arrays', () => {
    const items = { type: 'array', items: { writeOnly: true } };
    expect(redactor.redact(['a', 'b'], items)).toEqual([R, R]);
    expect(redactor.redact(new Set(['a']), items)).toEqual([R]);
    const grid = { type: 'array', items: { type: 'array', items: { writeOnly: true } } };
    expect(redactor.redact([['a'], ['b', 'c']], grid)).toEqual([[R], [R, R]]);
    expect(redactor.collectSecrets([['a'], ['b', 'c']], grid)).toEqual(['a', 'b', 'c']);
    expect(redactor.collectSecrets(new Set(['s']), items)).toEqual(['s']);
  });

  it('redacts a whole object item marked secret, and keeps items of an unmarked array', () => {
    const schema = { properties: { keys: { items: { writeOnly: true, type: 'object' } }, tags: { items: { type: 'string' } } } };
    expect(redactor.redact({ keys: [{ id: 1, value: 'v' }], tags: ['t'] }, schema)).toEqual({ keys: [R], tags: ['t'] });
    expect(redactor.collectSecrets({ keys: [{ id: 1, value: 'v' }], tags: ['t'] }, schema)).toEqual(['1', 'v']);
  });

  it('follows tuples: prefixItems then items, and the older items list then additionalItems', () => {
    const modern = { prefixItems: [{ type: 'string' }, { writeOnly: true }], items: { format: 'password' } };
    expect(both(['a', 'b', 'c', 'd'], modern)).toEqual({ copy: ['a', R, R, R], nested: ['a', R, R, R], secrets: ['b', 'c', 'd'] });
    const older = { items: [{ writeOnly: true }, { type: 'string' }], additionalItems: { writeOnly: true } };
    expect(both(['a', 'b', 'c'], older)).toEqual({ copy: [R, 'b', R], nested: [R, 'b', R], secrets: ['a', 'c'] });
    const olderOpen = { items: [{ type: 'string' }] };
    expect(both(['a', 'b'], olderOpen)).toEqual({ copy: ['a', 'b'], nested: ['a', 'b'], secrets: [] });
    const prefixOnly = { prefixItems: [{ writeOnly: true }] };
    expect(both(['a', 'b'], prefixOnly)).toEqual({ copy: [R, 'b'], nested: [R, 'b'], secrets: ['a'] });
  });

  it('finds markings in additionalProperties and in anyOf, oneOf and allOf branches, items included', () => {
    const schema = {
      type: 'object',
      properties: {
        headers: { type: 'object', additionalProperties: { format: 'password' } },
        either: { anyOf: [{ type: 'null' }, { type: 'array', items: { writeOnly: true } }] },
        one: { oneOf: [{ type: 'array', items: { 'x-milpa-secret': true } }] },
        all: { allOf: [{ type: 'array' }, { items: { allOf: [{ format: 'password' }] } }] },
      },
    };
    const value = { headers: { 'X-Trace': 'h-1' }, either: ['e-1'], one: ['o-1'], all: ['a-1'] };
    expect(redactor.redact(value, schema)).toEqual({ headers: { 'X-Trace': R }, either: [R], one: [R], all: [R] });
    expect(redactor.collectSecrets(value, schema).sort()).toEqual(['a-1', 'e-1', 'h-1', 'o-1']);
    expect(redactor.redact({ 'X-Trace': 'h-1', n: 1 }, schema.properties.headers)).toEqual({ 'X-Trace': R, n: R });
  });

  it('marks an array item secret under a secret parent even when the item schema says nothing', () => {
    const schema = { properties: { vault: { writeOnly: true, items: { type: 'string' } } } };
    expect(redactor.collectSecrets({ vault: ['v-1', ['v-2']] }, schema)).toEqual(['v-1', 'v-2']);
  });
});
