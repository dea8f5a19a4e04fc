import { MilpaError, Type, type JsonSchema, type TSchema } from '@milpa/core';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidSchemaError } from './invalid-schema-error.js';
import { SchemaValidator } from './schema-validator.js';
import { ValidationResult } from './validation-result.js';

const validator = new SchemaValidator();

function errorsOf(args: unknown, schema: JsonSchema | TSchema): readonly string[] {
  return validator.validate(args, schema).errors;
}

function props(properties: Record<string, JsonSchema>, extra: Record<string, unknown> = {}): JsonSchema {
  return { type: 'object', properties, ...extra };
}

function compileError(schema: unknown): InvalidSchemaError {
  try {
    new SchemaValidator().compile(schema as JsonSchema);
  } catch (error) {
    if (error instanceof InvalidSchemaError) return error;
    throw error;
  }
  throw new Error('expected compile() to throw');
}

describe('SchemaValidator', () => {
  describe('compile', () => {
    it('returns the shared VALID singleton when the arguments conform', () => {
      const check = validator.compile(props({ name: { type: 'string' } }));
      expect(check({ name: 'Ada' })).toBe(ValidationResult.VALID);
    });

    it('returns the same validator when the same schema object is compiled twice', () => {
      const schema = props({ name: { type: 'string' } });
      expect(validator.compile(schema)).toBe(validator.compile(schema));
    });

    it('shares one validator between structurally identical schemas', () => {
      const own = new SchemaValidator();
      const first = own.compile(Type.Object({ id: Type.Integer(), tags: Type.Array(Type.String()) }));
      for (let index = 0; index < 10_000; index += 1) {
        const copy = Type.Object({ id: Type.Integer(), tags: Type.Array(Type.String()) });
        expect(own.compile(copy)).toBe(first);
      }
    });

    it('validates the same way when identical schemas list their keys in another order', () => {
      const own = new SchemaValidator();
      const a = own.compile({ type: 'object', required: ['b', 'a'], properties: { a: { type: 'string' }, b: { type: 'string' } } });
      const b = own.compile({ properties: { b: { type: 'string' }, a: { type: 'string' } }, required: ['b', 'a'], type: 'object' });
      expect(a({}).errors).toEqual(['Missing required field: b', 'Missing required field: a']);
      expect(b({}).errors).toEqual(a({}).errors);
      expect(a({ a: 1, b: 2 }).errors).toEqual(['a: Expected string, got integer', 'b: Expected string, got integer']);
      // Property errors follow each schema's own `properties` order.
      expect(b({ a: 1, b: 2 }).errors).toEqual(['b: Expected string, got integer', 'a: Expected string, got integer']);
    });

    it('keeps apart schemas that differ only where their JSON text would look the same', () => {
      const own = new SchemaValidator();
      const isoString = own.compile(props({ at: { const: '1970-01-01T00:00:00.000Z' } }));
      const date = own.compile(props({ at: { const: new Date(0) } }));
      expect(isoString({ at: '1970-01-01T00:00:00.000Z' }).valid).toBe(true);
      expect(date).not.toBe(isoString);
      expect(date({ at: '1970-01-01T00:00:00.000Z' }).valid).toBe(false);
    });

    it('accepts a TypeBox schema', () => {
      const check = validator.compile(
        Type.Object({ name: Type.String({ minLength: 2 }), age: Type.Optional(Type.Integer({ minimum: 0 })) }),
      );
      expect(check({ name: 'Ada', age: 36 }).valid).toBe(true);
      expect(check({ name: 'A', age: -1 }).errors).toEqual(['name: String too short (min: 2)', 'age: Value too small (min: 0)']);
    });

    it('accepts annotations and x- keywords at any depth', () => {
      const schema = props({
        password: {
          type: 'string',
          title: 'Password',
          description: 'The password',
          default: 'x',
          examples: ['hunter2'],
          readOnly: false,
          writeOnly: true,
          deprecated: false,
          $comment: 'never logged',
          'x-milpa-secret': true,
        },
        nested: props({ key: { type: 'string', 'x-vendor-hint': { any: 'shape' } } }),
      });
      expect(() => new SchemaValidator().compile({ ...schema, 'x-root-note': 1 })).not.toThrow();
    });

    it('throws InvalidSchemaError naming the keyword and its path when a keyword is misspelled', () => {
      const error = compileError(props({ name: { type: 'string', minLenght: 3 } }));
      expect(error).toBeInstanceOf(MilpaError);
      expect(error.code).toBe('INVALID_SCHEMA');
      expect(error.schemaPath).toBe('#/properties/name');
      expect(error.message).toContain('unknown keyword "minLenght"');
      expect(error.message).toContain('#/properties/name');
    });

    it('throws InvalidSchemaError for an unknown format', () => {
      const error = compileError(props({ mail: { type: 'string', format: 'emial' } }));
      expect(error.message).toContain('unknown format "emial"');
      expect(error.message).toContain('#/properties/mail');
    });

    it('throws InvalidSchemaError naming the path when a keyword has a malformed value', () => {
      const error = compileError(props({ kind: { type: 'strin' } }));
      expect(error.schemaPath).toBe('#/properties/kind/type');
      expect(error.message).toContain('#/properties/kind/type');
      expect(error.message).toContain('string');
      expect(compileError(props({ n: { minimum: 'ten' } })).message).toContain('#/properties/n/minimum: must be number');
    });

    it('throws InvalidSchemaError when the schema is not an object', () => {
      expect(compileError(null).message).toContain('a schema must be a JSON object, got null');
      expect(compileError([]).message).toContain('got array');
    });

    it('throws InvalidSchemaError when the schema object contains itself', () => {
      const schema: Record<string, unknown> = { type: 'object', properties: {} };
      (schema['properties'] as Record<string, unknown>)['self'] = schema;
      expect(compileError(schema).message).toContain('cyclic');
    });

    it('does not cache a schema that failed to compile', () => {
      const own = new SchemaValidator();
      const bad = props({ a: { type: 'string', minLenght: 1 } });
      expect(() => own.compile(bad)).toThrow(InvalidSchemaError);
      expect(() => own.compile(bad)).toThrow(InvalidSchemaError);
    });
  });

  describe('assertSchema', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    function countAjvCompiles() {
      return vi.spyOn(Ajv2020.prototype, 'compile');
    }

    function assertError(schema: unknown): string {
      try {
        new SchemaValidator().assertSchema(schema as JsonSchema);
      } catch (error) {
        if (error instanceof InvalidSchemaError) return error.message;
        throw error;
      }
      throw new Error('expected assertSchema() to throw');
    }

    it('compiles nothing when the schema uses only keywords the meta-schema settles', () => {
      const compiles = countAjvCompiles();
      const own = new SchemaValidator();
      own.assertSchema(
        Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z]+$', format: 'email' }),
            count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
            mode: Type.Union([Type.Literal('fast'), Type.Literal('safe')]),
            tags: Type.Array(Type.String(), { maxItems: 8, uniqueItems: true }),
            pair: Type.Unsafe<[string, number]>({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }),
            choice: Type.Optional(Type.Union([Type.Null(), Type.Boolean()])),
            secret: Type.String({ writeOnly: true, 'x-milpa-secret': true }),
          },
          { additionalProperties: false, $schema: 'https://json-schema.org/draft/2020-12/schema' },
        ),
      );
      expect(compiles).not.toHaveBeenCalled();
    });

    it('compiles once, now, when only a compile can settle the schema', () => {
      const compiles = countAjvCompiles();
      const own = new SchemaValidator();
      const schema = { type: 'object', $defs: { id: { type: 'integer' } }, properties: { id: { $ref: '#/$defs/id' } } };
      own.assertSchema(schema);
      expect(compiles).toHaveBeenCalledTimes(1);
      // The validator compiled here is the one the first use gets.
      expect(own.compile(schema)({ id: 'x' }).errors).toEqual(['id: Expected integer, got string']);
      expect(compiles).toHaveBeenCalledTimes(1);
    });

    it('checks a schema object once however many times it is asserted', () => {
      const own = new SchemaValidator();
      const schema = props({ name: { type: 'string' } });
      own.assertSchema(schema);
      const meta = vi.spyOn(Ajv2020.prototype, 'validateSchema');
      own.assertSchema(schema);
      expect(meta).not.toHaveBeenCalled();
    });

    it.each<[string, unknown]>([
      ['a misspelled keyword', props({ name: { type: 'string', minLenght: 3 } })],
      ['a misspelled keyword in a list of subschemas', props({ v: { anyOf: [{ type: 'string' }, { tpye: 'integer' }] } })],
      ['an unknown format', props({ mail: { type: 'string', format: 'emial' } })],
      ['a malformed keyword value', props({ kind: { type: 'strin' } })],
      ['a malformed bound', props({ n: { minimum: 'ten' } })],
      ['a pattern that is not a regular expression', props({ code: { type: 'string', pattern: '([a-z' } })],
      ['an empty enum', props({ status: { enum: [] } })],
      ['an unresolvable $ref', props({ id: { $ref: '#/$defs/missing' } })],
      ['"then" without "if" (strict mode)', props({ v: { then: { type: 'string' } } })],
      ['"minContains" without "contains" (strict mode)', props({ list: { type: 'array', minContains: 1 } })],
      ['the unsupported "id" keyword', { type: 'object', id: 'x' }],
      ['an unknown $schema', { $schema: 'https://example.com/not-a-meta-schema', type: 'object' }],
      ['an x- name ajv cannot take as a keyword', props({ a: { type: 'string', 'x-a b': 1 } })],
      ['a non-object schema', null],
      ['an array schema', []],
    ])('throws what compile() throws for %s', (_case, schema) => {
      expect(assertError(schema)).toBe(compileError(schema).message);
    });

    it('throws what compile() throws when the schema object contains itself', () => {
      const schema: Record<string, unknown> = { type: 'object', properties: {} };
      (schema['properties'] as Record<string, unknown>)['self'] = schema;
      expect(assertError(schema)).toContain('cyclic');
      expect(assertError(schema)).toBe(compileError(schema).message);
    });

    it('throws exactly when compile() throws, with the same message, for generated schemas', () => {
      // Valid and invalid keywords and values mixed at every depth.
      const leaf = fc.oneof(
        fc.record(
          { type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null', 'object', 'array', 'strin') },
          { requiredKeys: [] },
        ),
        fc.record({ minLength: fc.constantFrom(0, 3, -1, 'x'), maxLength: fc.constantFrom(5, 1.5) }, { requiredKeys: [] }),
        fc.record({ pattern: fc.constantFrom('^a+$', '([a-z', '\\p{L}', '\\Z') }),
        fc.record({ format: fc.constantFrom('email', 'uri', 'date-time', 'emial', 'regex') }),
        fc.record({ enum: fc.constantFrom([], ['a'], [1, null], 'a') }),
        fc.record({ const: fc.constantFrom('a', 1, null, { nested: true }) }),
        fc.record({ minLenght: fc.constant(1) }),
        fc.record({ 'x-note': fc.constant(true), title: fc.constantFrom('t', 3) }, { requiredKeys: [] }),
        fc.record({ $ref: fc.constantFrom('#', '#/$defs/a', '#/properties/missing') }),
        fc.record({ minContains: fc.constant(1) }),
        fc.record({ then: fc.constant({ type: 'string' }) }),
        fc.constantFrom(true, false),
      );
      const { node } = fc.letrec<{ node: unknown }>((tie) => ({
        node: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          leaf,
          fc.record(
            { type: fc.constant('object'), properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 }) },
            { requiredKeys: ['properties'] },
          ),
          fc.record({ anyOf: fc.array(tie('node'), { minLength: 0, maxLength: 3 }) }),
          fc.record({ items: tie('node'), minItems: fc.constantFrom(0, 2) }, { requiredKeys: ['items'] }),
          fc.record({ not: tie('node'), additionalProperties: tie('node') }, { requiredKeys: [] }),
          fc.record({ $defs: fc.record({ a: tie('node') }), allOf: fc.array(tie('node'), { maxLength: 2 }) }, { requiredKeys: ['$defs'] }),
        ),
      }));
      const outcome = (run: () => void): string => {
        try {
          run();
          return 'ok';
        } catch (error) {
          return error instanceof InvalidSchemaError ? error.message : `not an InvalidSchemaError: ${String(error)}`;
        }
      };
      const asserting = new SchemaValidator();
      const compiling = new SchemaValidator();
      fc.assert(
        fc.property(node, (schema) => {
          fc.pre(typeof schema === 'object');
          const asserted = outcome(() => asserting.assertSchema(schema as JsonSchema));
          const compiled = outcome(() => compiling.compile(schema as JsonSchema));
          expect(asserted).toBe(compiled);
        }),
        { numRuns: 300 },
      );
    });

    it('accepts what compile() accepts, compiled or not', () => {
      const own = new SchemaValidator();
      const schemas: JsonSchema[] = [
        {},
        props({ at: { const: new Date(0) } }),
        props({ v: { if: { type: 'string' }, then: { minLength: 2 } } }),
        { type: 'object', patternProperties: { '^x_': { type: 'string' } } },
        props({ list: { type: 'array', contains: { type: 'integer' }, minContains: 2 } }),
        props({ note: { type: 'string', 'x-vendor-hint': { any: 'shape' } } }),
      ];
      for (const schema of schemas) expect(() => own.assertSchema(schema)).not.toThrow();
    });
  });

  describe('safeCompile', () => {
    it('returns the validator compile() returns when the schema is valid', () => {
      const own = new SchemaValidator();
      const schema = props({ name: { type: 'string' } });
      const compiled = own.safeCompile(schema);
      expect(compiled.ok && compiled.value).toBe(own.compile(schema));
    });

    it('returns the InvalidSchemaError instead of throwing when the schema is invalid', () => {
      const compiled = new SchemaValidator().safeCompile(props({ name: { type: 'string', minLenght: 3 } }));
      expect(compiled.ok).toBe(false);
      expect(!compiled.ok && compiled.error).toBeInstanceOf(InvalidSchemaError);
      expect(!compiled.ok && compiled.error.message).toContain('unknown keyword "minLenght"');
    });

    it('wraps anything else compile() throws in an InvalidSchemaError', () => {
      class Failing extends SchemaValidator {
        override compile(): never {
          throw new TypeError('boom');
        }
      }
      const compiled = new Failing().safeCompile(props({ name: { type: 'string' } }));
      expect(!compiled.ok && compiled.error.code).toBe('INVALID_SCHEMA');
      expect(!compiled.ok && compiled.error.message).toContain('boom');
    });
  });

  describe('validate', () => {
    describe('required', () => {
      it('reports a missing required field', () => {
        expect(errorsOf({}, props({ name: { type: 'string' } }, { required: ['name'] }))).toEqual(['Missing required field: name']);
      });

      it('counts a key present with value null as present', () => {
        expect(validator.validate({ name: null }, { type: 'object', required: ['name'] }).valid).toBe(true);
      });

      it('names a nested missing field by its path', () => {
        const schema = props({ user: props({ email: { type: 'string' } }, { required: ['email'] }) });
        expect(validator.validate({ user: {} }, schema).issues).toEqual([
          { path: 'user.email', message: 'Missing required field: user.email' },
        ]);
      });

      it('does not let an inherited property satisfy required', () => {
        const args = Object.create({ name: 'from the prototype' }) as Record<string, unknown>;
        expect(errorsOf(args, props({ name: { type: 'string' } }, { required: ['name'] }))).toEqual(['Missing required field: name']);
      });
    });

    describe('type', () => {
      it.each([
        ['string', 123, 'integer'],
        ['string', 1.5, 'number'],
        ['string', true, 'boolean'],
        ['string', null, 'null'],
        ['string', ['a'], 'array'],
        ['string', { a: 1 }, 'object'],
        ['integer', 'twenty-five', 'string'],
        ['integer', 2.5, 'number'],
        ['boolean', 'yes', 'string'],
        ['array', { key: 'value' }, 'object'],
        ['object', ['a', 'b', 'c'], 'array'],
        ['object', 'not-an-object', 'string'],
        ['number', '99.99', 'string'],
      ])('reports "Expected %s, got %s"-style errors for %j', (type, value, actual) => {
        expect(errorsOf({ field: value }, props({ field: { type } }))).toEqual([`field: Expected ${type}, got ${actual}`]);
      });

      it.each([
        ['integer', 25],
        ['number', 100],
        ['number', 99.99],
        ['boolean', true],
        ['array', ['php', 'testing']],
        ['object', { post_id: 1, title: 'New' }],
        ['object', {}],
        ['null', null],
      ])('accepts a %s value %j', (type, value) => {
        expect(validator.validate({ field: value }, props({ field: { type } })).valid).toBe(true);
      });

      it('rejects a numeric string for number (JSON Schema semantics: no type coercion)', () => {
        expect(errorsOf({ price: '99.99' }, props({ price: { type: 'number' } }))).toEqual(['price: Expected number, got string']);
      });

      it('rejects NaN and Infinity for number', () => {
        expect(errorsOf({ n: Number.NaN }, props({ n: { type: 'number' } }))).toEqual(['n: Expected number, got NaN']);
        expect(errorsOf({ n: Number.POSITIVE_INFINITY }, props({ n: { type: 'number' } }))).toEqual(['n: Expected number, got Infinity']);
      });

      it('names every allowed type of a type union', () => {
        expect(errorsOf({ note: 5 }, props({ note: { type: ['string', 'null'] } }))).toEqual([
          'note: Expected string or null, got integer',
        ]);
        expect(errorsOf({ v: true }, props({ v: { type: ['string', 'integer', 'null'] } }))).toEqual([
          'v: Expected string, integer or null, got boolean',
        ]);
      });

      it('collapses an anyOf of types into one message', () => {
        const schema = Type.Object({ note: Type.Union([Type.String(), Type.Null()]) });
        expect(errorsOf({ note: 5 }, schema)).toEqual(['note: Expected string or null, got integer']);
        expect(validator.validate({ note: null }, schema).valid).toBe(true);
      });

      it('collapses an anyOf of literals into a one-of message', () => {
        const schema = Type.Object({ mode: Type.Union([Type.Literal('fast'), Type.Literal('safe')]) });
        expect(errorsOf({ mode: 'slow' }, schema)).toEqual(['mode: Value must be one of: fast, safe']);
      });

      it('reports a generic message when anyOf branches fail for mixed reasons', () => {
        const schema = props({ v: { anyOf: [{ type: 'string', minLength: 5 }, { type: 'integer' }] } });
        expect(errorsOf({ v: 'abc' }, schema)).toEqual(['v: Value does not match any of the allowed schemas']);
      });

      it('reports a oneOf matched by several branches', () => {
        const schema = props({ v: { oneOf: [{ type: 'integer' }, { type: 'number' }] } });
        expect(errorsOf({ v: 1 }, schema)).toEqual(['v: Value matches more than one of the allowed schemas']);
      });
    });

    describe('value constraints', () => {
      it('reports enum violations with the allowed values, strictly', () => {
        const schema = props({ status: { enum: ['active', 'inactive', 'pending'] } });
        expect(errorsOf({ status: 'unknown' }, schema)).toEqual(['status: Value must be one of: active, inactive, pending']);
        expect(errorsOf({ status: ['active'] }, schema)).toHaveLength(1);
        expect(errorsOf({ n: '1' }, props({ n: { enum: [1, 2, null] } }))).toEqual(['n: Value must be one of: 1, 2, null']);
      });

      it('reports const violations', () => {
        expect(errorsOf({ v: 'b' }, props({ v: { const: 'a' } }))).toEqual(['v: Value must be: a']);
      });

      it('reports string length bounds, counting characters rather than UTF-16 units', () => {
        const schema = props({ password: { type: 'string', minLength: 8, maxLength: 20 } });
        expect(errorsOf({ password: 'short' }, schema)).toEqual(['password: String too short (min: 8)']);
        expect(errorsOf({ password: 'x'.repeat(21) }, schema)).toEqual(['password: String too long (max: 20)']);
        expect(validator.validate({ v: '😀😀' }, props({ v: { type: 'string', maxLength: 2 } })).valid).toBe(true);
      });

      it('reports numeric bounds', () => {
        const schema = props({ age: { type: 'integer', minimum: 18, maximum: 100 } });
        expect(errorsOf({ age: 15 }, schema)).toEqual(['age: Value too small (min: 18)']);
        expect(errorsOf({ age: 150 }, schema)).toEqual(['age: Value too large (max: 100)']);
        expect(validator.validate({ age: 18 }, schema).valid).toBe(true);
      });

      it('does not apply numeric bounds to strings', () => {
        expect(validator.validate({ v: '5' }, props({ v: { type: 'string', minimum: 18 } })).valid).toBe(true);
      });

      it('reports exclusive bounds and multipleOf', () => {
        expect(errorsOf({ v: 0 }, props({ v: { exclusiveMinimum: 0 } }))).toEqual(['v: Value must be greater than 0']);
        expect(errorsOf({ v: 10 }, props({ v: { exclusiveMaximum: 10 } }))).toEqual(['v: Value must be less than 10']);
        expect(errorsOf({ v: 7 }, props({ v: { multipleOf: 5 } }))).toEqual(['v: Value must be a multiple of 5']);
      });

      it('reports pattern and format violations', () => {
        expect(errorsOf({ code: 'ab' }, props({ code: { type: 'string', pattern: '^[0-9]+$' } }))).toEqual([
          'code: String does not match pattern: ^[0-9]+$',
        ]);
        expect(errorsOf({ email: 'nope' }, props({ email: { type: 'string', format: 'email' } }))).toEqual([
          'email: Invalid format (expected: email)',
        ]);
        expect(validator.validate({ email: 'ada@example.com' }, props({ email: { type: 'string', format: 'email' } })).valid).toBe(true);
      });

      it('skips format checks when formats are turned off', () => {
        const lax = new SchemaValidator({ formats: false });
        expect(lax.validate({ email: 'nope' }, props({ email: { type: 'string', format: 'email' } })).valid).toBe(true);
      });
    });

    describe('arrays and nested objects', () => {
      it('validates items and names them by index', () => {
        const schema = props({ tags: { type: 'array', items: { type: 'string' } } });
        expect(validator.validate({ tags: ['a', 3, 'c', false] }, schema).issues).toEqual([
          { path: 'tags[1]', message: 'tags[1]: Expected string, got integer' },
          { path: 'tags[3]', message: 'tags[3]: Expected string, got boolean' },
        ]);
      });

      it('reports item counts and uniqueness', () => {
        const schema = props({ tags: { type: 'array', minItems: 2, maxItems: 3, uniqueItems: true } });
        expect(errorsOf({ tags: ['a'] }, schema)).toEqual(['tags: Too few items (min: 2)']);
        expect(errorsOf({ tags: ['a', 'b', 'c', 'd'] }, schema)).toEqual(['tags: Too many items (max: 3)']);
        expect(errorsOf({ tags: ['a', 'a'] }, schema)).toEqual(['tags: Items must be unique (items 0 and 1 are identical)']);
      });

      it('validates nested objects at any depth', () => {
        const schema = props({
          user: props(
            { email: { type: 'string', format: 'email' }, roles: { type: 'array', items: props({ name: { type: 'string' } }) } },
            { additionalProperties: false },
          ),
        });
        expect(errorsOf({ user: { email: 5, roles: [{ name: 1 }], extra: true } }, schema)).toEqual([
          'user.email: Expected string, got integer',
          'user.roles[0].name: Expected string, got integer',
          'Unknown property: user.extra',
        ]);
      });

      it('reports a property whose schema is false', () => {
        expect(errorsOf({ legacy: 1 }, props({ legacy: false as unknown as JsonSchema }))).toEqual(['legacy: Value is not allowed']);
      });

      it('reports a then-branch failure rather than the bare if', () => {
        const schema = props({ kind: { type: 'string' } }, { if: props({ kind: { const: 'card' } }), then: { required: ['number'] } });
        expect(errorsOf({ kind: 'card' }, schema)).toEqual(['Missing required field: number']);
      });
    });

    describe('unknown properties', () => {
      it('reports an extra key when additionalProperties is false', () => {
        expect(errorsOf({ extra: 1 }, props({ a: { type: 'string' } }, { additionalProperties: false }))).toEqual([
          'Unknown property: extra',
        ]);
      });

      it('lets extra keys through when additionalProperties is not false', () => {
        expect(validator.validate({ extra: 1 }, props({ a: { type: 'string' } })).valid).toBe(true);
      });

      it('reports an own __proto__ key as an ordinary unknown property', () => {
        const args = JSON.parse('{"__proto__": {"polluted": true}, "a": "x"}') as Record<string, unknown>;
        expect(errorsOf(args, props({ a: { type: 'string' } }, { additionalProperties: false }))).toEqual(['Unknown property: __proto__']);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      });

      it('reports unevaluatedProperties like additionalProperties', () => {
        expect(errorsOf({ a: 1, b: 2 }, props({ a: {} }, { unevaluatedProperties: false }))).toEqual(['Unknown property: b']);
      });
    });

    describe('report order', () => {
      it('lists required errors in required order, then property errors in properties order, then unknown keys in argument order', () => {
        const schema = props(
          { name: { type: 'string' }, email: { type: 'string' }, age: { type: 'integer' }, role: { enum: ['a', 'b'] } },
          { required: ['name', 'email'], additionalProperties: false },
        );
        const args = { zeta: 1, role: 'x', alpha: 2, age: 'old' };
        expect(validator.validate(args, schema).getErrorMessage()).toBe(
          'Missing required field: name; Missing required field: email; age: Expected integer, got string; ' +
            'role: Value must be one of: a, b; Unknown property: zeta; Unknown property: alpha',
        );
      });
    });

    describe('empty schema', () => {
      it('accepts an empty object and rejects any key', () => {
        expect(validator.validate({}, {}).valid).toBe(true);
        expect(errorsOf({ foo: 'bar' }, {})).toEqual(['Unknown property: foo']);
      });
    });

    describe('declared but absent properties', () => {
      it('does not validate a declared property that is absent', () => {
        expect(validator.validate({}, props({ age: { type: 'integer', minimum: 18 } })).valid).toBe(true);
      });
    });

    describe('non-object arguments', () => {
      it.each([
        [null, 'null'],
        [[1, 2], 'array'],
        ['text', 'string'],
        [7, 'integer'],
        [undefined, 'undefined'],
      ])('fails at the root when the arguments are %j', (args, type) => {
        expect(validator.validate(args, props({})).issues).toEqual([{ path: '', message: `Arguments must be an object, got ${type}` }]);
      });

      it('fails instead of throwing when reading the arguments throws', () => {
        const args = new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('trap');
            },
          },
        );
        const result = validator.validate(args, props({ a: { type: 'string' } }, { additionalProperties: false }));
        expect(result.valid).toBe(false);
        expect(result.errors[0]).toContain('Arguments could not be read');
      });
    });
  });

  describe('applyClamps', () => {
    it('bounds numbers to min and max', () => {
      const clamps = { page: { min: 1, max: 100 } };
      expect(validator.applyClamps({ page: 500 }, clamps)).toEqual({ page: 100 });
      expect(validator.applyClamps({ page: -5 }, clamps)).toEqual({ page: 1 });
    });

    it('returns the same object when nothing changes', () => {
      const args = { page: 50, other: 'x' };
      expect(validator.applyClamps(args, { page: { min: 1, max: 100 } })).toBe(args);
      expect(validator.applyClamps(args, {})).toBe(args);
    });

    it('returns a shallow copy and leaves the caller object untouched when a value changes', () => {
      const nested = { keep: true };
      const args = { page: 500, nested };
      const clamped = validator.applyClamps(args, { page: { max: 100 } });
      expect(clamped).not.toBe(args);
      expect(args.page).toBe(500);
      expect(clamped['nested']).toBe(nested);
    });

    it('cuts strings to maxLength characters, keeping surrogate pairs whole', () => {
      expect(validator.applyClamps({ message: 'a'.repeat(30) }, { message: { maxLength: 20 } })).toEqual({ message: 'a'.repeat(20) });
      expect(validator.applyClamps({ m: '😀😀😀' }, { m: { maxLength: 2 } })).toEqual({ m: '😀😀' });
      expect(validator.applyClamps({ m: 'ab😀' }, { m: { maxLength: 3 } })).toEqual({ m: 'ab😀' });
    });

    it('leaves absent, null and other-typed fields untouched', () => {
      const args = { page: null, label: 5, flag: true };
      expect(validator.applyClamps(args, { page: { min: 1 }, label: { maxLength: 1 }, flag: { max: 0 }, absent: { min: 1 } })).toBe(args);
    });

    it('keeps a clamped __proto__ field as a plain data field', () => {
      const args = JSON.parse('{"__proto__": 500}') as Record<string, unknown>;
      const clamped = validator.applyClamps(args, { ['__proto__']: { max: 10 } });
      expect(Object.getOwnPropertyDescriptor(clamped, '__proto__')?.value).toBe(10);
      expect(Object.getPrototypeOf(clamped)).toBe(Object.prototype);
    });

    it('never rejects a clamped field for its range when clamps run before validation', () => {
      const schema = props({ page: { type: 'integer', minimum: 1, maximum: 100 } });
      const clamped = validator.applyClamps({ page: 500 }, { page: { min: 1, max: 100 } });
      expect(validator.validate(clamped, schema).valid).toBe(true);
      expect(validator.validate({ page: 500 }, schema).errors).toEqual(['page: Value too large (max: 100)']);
    });
  });
});
