import { Type } from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SENSITIVE_FIELDS, REDACTED, Redactor } from '../../src/audit/redactor.js';

// Flat arguments (a plain object of primitives) take the redactor's short path; anything nested
// takes the full walk. Wrapping the same object one level down forces the full walk, so the two
// paths can be compared on the same input: they must agree exactly, for every key spelling and
// every schema marking.

const SENSITIVE_SPELLINGS = DEFAULT_SENSITIVE_FIELDS.flatMap((field) => {
  const words = field
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split('_');
  const title = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
  return [
    words.join('_'),
    words.join('-'),
    words.join('_').toUpperCase(),
    words.map((word, index) => (index === 0 ? word : title(word))).join(''),
    words.map(title).join('_-'),
    `_${words.join('')}_`,
  ];
});

const key = fc.oneof(
  { arbitrary: fc.constantFrom(...SENSITIVE_SPELLINGS), weight: 2 },
  { arbitrary: fc.constantFrom('name', 'count', 'pin', 'recovery', 'note', '_ctx', '__proto__', 'extra'), weight: 3 },
  { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
);
const primitive = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined));
const flatArgs = fc.dictionary(key, primitive, { maxKeys: 8 }).map((entries) => {
  // Own `__proto__` keys, as JSON.parse makes them, and a null-prototype object now and then.
  const target: Record<string, unknown> = Object.keys(entries).length % 3 === 0 ? Object.create(null) : {};
  for (const [name, value] of Object.entries(entries))
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  return target;
});

const schemas = fc.constantFrom<object | null>(
  null,
  Type.Object({ name: Type.String(), pin: Type.String({ writeOnly: true }) }),
  Type.Object({ recovery: Type.String({ 'x-milpa-secret': true }) }, { additionalProperties: Type.String({ writeOnly: true }) }),
  { allOf: [{ properties: { note: { type: 'string' } } }, { properties: { note: { writeOnly: true } } }] },
  { anyOf: [{ properties: { count: { 'x-milpa-secret': true } } }, { additionalProperties: { writeOnly: true } }] },
  { type: 'object', additionalProperties: { 'x-milpa-secret': true } },
);

function fullWalk(redactor: Redactor, args: object, schema: object | null): unknown {
  const copy = redactor.redact({ inner: args }, schema === null ? null : { type: 'object', properties: { inner: schema } });
  return (copy as { inner: unknown }).inner;
}

function fullCollect(redactor: Redactor, args: object, schema: object | null): string[] {
  return redactor.collectSecrets([args], schema === null ? null : { type: 'array', items: schema });
}

describe('Redactor', () => {
  describe('redact and collectSecrets on flat arguments', () => {
    it('agree with the full walk for every key spelling and schema marking', () => {
      fc.assert(
        fc.property(flatArgs, schemas, (args, schema) => {
          const redactor = new Redactor();
          expect(redactor.redact(args, schema)).toStrictEqual(fullWalk(redactor, args, schema));
          expect(redactor.collectSecrets(args, schema).sort()).toEqual(fullCollect(redactor, args, schema).sort());
        }),
        { numRuns: 2_000 },
      );
    });

    it('never lets a value under a sensitive or schema-marked key through', () => {
      fc.assert(
        fc.property(flatArgs, schemas, (args, schema) => {
          const copy = new Redactor().redact(args, schema) as Record<string, unknown>;
          for (const name of Object.keys(copy)) {
            const normalized = name.toLowerCase().replace(/[-_]/g, '');
            if (DEFAULT_SENSITIVE_FIELDS.some((field) => field.toLowerCase().replace(/[-_]/g, '') === normalized)) {
              expect(copy[name]).toBe(REDACTED);
            }
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});
