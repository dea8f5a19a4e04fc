import { isRecord } from '@milpa/core/kit';
import type { ClampRule, JsonSchema, TSchema } from '@milpa/core';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { applyClamps } from './apply-clamps.js';
import { describeValidationErrors } from './describe-validation-errors.js';
import { InvalidSchemaError } from './invalid-schema-error.js';
import { describeMetaSchemaErrors, toInvalidSchemaError } from './schema-error-messages.js';
import { jsonTypeName } from './json-type-name.js';
import { schemaCacheKey } from './schema-cache-key.js';
import { ValidationResult } from './validation-result.js';

/**
 * A compiled check for one schema: returns {@link ValidationResult.VALID} (the shared singleton, no
 * allocation) when `args` conform, otherwise an invalid result listing every problem.
 */
export type CompiledValidator = (args: unknown) => ValidationResult;

/** Options of {@link SchemaValidator}. */
export interface SchemaValidatorOptions {
  /** Validate `format` (`email`, `uri`, `date-time`, …) through ajv-formats. Default true. */
  readonly formats?: boolean;
}

// An empty schema means "no arguments at all", not "anything goes".
const EMPTY_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}), additionalProperties: false });

/** The meta-schema ajv checks a schema against when it names none. */
const DEFAULT_META_SCHEMA = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Keywords whose every value the meta-schema accepts is also one ajv compiles without complaint
 * (under the options below): annotations and plain constraints. Checking them needs no compile.
 */
const SETTLED_BY_META_SCHEMA: ReadonlySet<string> = new Set([
  'type',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  '$comment',
  'required',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
]);

/** Keywords holding one subschema. */
const ONE_SUBSCHEMA: ReadonlySet<string> = new Set(['not', 'items', 'additionalProperties', 'propertyNames']);

/** Keywords holding a list of subschemas. */
const SUBSCHEMA_LIST: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/** Deeper than this, a schema is left to the compile (which reports what is wrong, if anything). */
const MAX_SETTLED_DEPTH = 64;

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (!isRecord(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** True when `pattern` is a regular expression ajv can build (it adds the `u` flag). */
function isUnicodePattern(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A non-throwing compile: the validator, or why the schema cannot be compiled. */
export type SafeCompileResult =
  | { readonly ok: true; readonly value: CompiledValidator }
  | { readonly ok: false; readonly error: InvalidSchemaError };

function notAnObject(args: unknown): ValidationResult {
  return ValidationResult.invalid([{ path: '', message: `Arguments must be an object, got ${jsonTypeName(args)}` }]);
}

function createValidator(check: ValidateFunction, schema: JsonSchema): CompiledValidator {
  return (args: unknown): ValidationResult => {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return notAnObject(args);
    let valid: boolean;
    try {
      valid = check(args) as boolean;
    } catch (error) {
      // A Proxy or a throwing getter in the arguments: unreadable arguments are invalid ones.
      const reason = error instanceof Error ? error.message : 'unreadable value';
      return ValidationResult.invalid([{ path: '', message: `Arguments could not be read: ${reason}` }]);
    }
    if (valid) return ValidationResult.VALID;
    const issues = describeValidationErrors(check.errors ?? [], args as Readonly<Record<string, unknown>>, schema);
    return ValidationResult.invalid(issues.length > 0 ? issues : [{ path: '', message: 'Arguments do not match the schema' }]);
  };
}

/**
 * Validates tool arguments against their JSON Schema (2020-12) with ajv, and applies clamps.
 *
 * Each schema is compiled once: the same schema object is looked up by identity, and structurally
 * identical schemas share one compiled validator, so registering thousands of tools that share a
 * shape costs one compilation. Strict mode rejects unknown (typo'd) keywords and formats at compile
 * time; annotations (`title`, `description`, `default`, `examples`, `readOnly`, `writeOnly`,
 * `deprecated`, `$comment`) and any `x-` keyword (such as `x-milpa-secret`) are accepted.
 *
 * Messages are plain at the top level and name nested fields by path:
 * `Missing required field: name`, `age: Expected integer, got string`,
 * `user.email: Invalid format (expected: email)`, `Unknown property: extra`.
 *
 * @example
 * const validator = new SchemaValidator();
 * const check = validator.compile(Type.Object({ name: Type.String() }));
 * check({ name: 'Ada' }).valid;            // true
 * check({}).getErrorMessage();             // 'Missing required field: name'
 */
export class SchemaValidator {
  readonly #ajv: Ajv2020;
  readonly #byIdentity = new WeakMap<object, CompiledValidator>();
  /** By order-preserving key: the same schema in the same key order reports errors in the same order. */
  readonly #byStructure = new Map<string, CompiledValidator>();
  /** By sorted key: ajv functions are shared even when only key order differs. */
  readonly #functions = new Map<string, ValidateFunction>();
  readonly #annotationKeywords = new Set<string>();
  /** `x-` names ajv refused as keywords: a schema using one is left to the compile to report. */
  readonly #refusedAnnotationKeywords = new Set<string>();
  /** Schemas {@link SchemaValidator.assertSchema} accepted without compiling them. */
  readonly #checked = new WeakSet<object>();

  constructor(options: SchemaValidatorOptions = {}) {
    const formats = options.formats ?? true;
    this.#ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      // Only typos should fail: `properties` without `type`, partial tuples and `required` names
      // declared in another branch are all legal JSON Schema.
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      // Inherited properties are never arguments (a polluted prototype must not satisfy `required`).
      ownProperties: true,
      validateFormats: formats,
      logger: false,
    });
    if (formats) addFormats(this.#ajv);
  }

  /**
   * Compiles `schema` (or returns the cached validator for it). An empty schema `{}` accepts only an
   * empty argument object.
   *
   * @throws InvalidSchemaError when the schema is not an object, contains an unknown keyword or
   *   format, or is otherwise not valid JSON Schema 2020-12.
   */
  compile(schema: JsonSchema | TSchema): CompiledValidator {
    if (!isRecord(schema)) {
      throw new InvalidSchemaError(`Invalid input schema at #: a schema must be a JSON object, got ${jsonTypeName(schema)}.`, {
        schemaPath: '#',
      });
    }
    const known = this.#byIdentity.get(schema);
    if (known !== undefined) return known;

    const effective = Object.keys(schema).length === 0 ? EMPTY_SCHEMA : schema;
    // A schema that is not plain JSON data has no key (null) and is compiled on its own.
    const orderedKey = schemaCacheKey(effective, false);
    let validator = orderedKey === null ? undefined : this.#byStructure.get(orderedKey);
    if (validator === undefined) {
      const sortedKey = orderedKey === null ? null : schemaCacheKey(effective, true);
      let check = sortedKey === null ? undefined : this.#functions.get(sortedKey);
      if (check === undefined) {
        check = this.#compileWithAjv(effective);
        if (sortedKey !== null) this.#functions.set(sortedKey, check);
      }
      validator = createValidator(check, effective);
      if (orderedKey !== null) this.#byStructure.set(orderedKey, validator);
    }
    this.#byIdentity.set(schema, validator);
    return validator;
  }

  /**
   * Throws exactly when {@link SchemaValidator.compile} would, but compiles nothing when it can
   * tell without: the schema is checked against the JSON Schema 2020-12 meta-schema and walked for
   * what strict mode refuses (unknown keywords and formats, patterns that are not regular
   * expressions, cycles). A schema whose validity only a compile can settle — one with `$ref`,
   * `$id`, `$defs`, `if`/`then`/`else`, `patternProperties`, `contains`, `dependentSchemas`,
   * `unevaluated*`, a `$schema` other than 2020-12, or nesting deeper than 64 levels — is compiled
   * now (and the validator cached), so an invalid schema always fails here and never at first use.
   *
   * A registry calls this at registration and compiles on the tool's first call: registering many
   * tools then costs a schema check each instead of a generated validator each.
   *
   * @throws InvalidSchemaError as {@link SchemaValidator.compile}.
   * @example
   * validator.assertSchema(Type.Object({ name: Type.String() }));      // passes, compiles nothing
   * validator.assertSchema({ type: 'object', properties: { a: { minLenght: 1 } } }); // throws
   */
  assertSchema(schema: JsonSchema | TSchema): void {
    if (!isRecord(schema)) {
      throw new InvalidSchemaError(`Invalid input schema at #: a schema must be a JSON object, got ${jsonTypeName(schema)}.`, {
        schemaPath: '#',
      });
    }
    if (this.#checked.has(schema) || this.#byIdentity.has(schema)) return;
    if (Object.keys(schema).length === 0) return;
    if (!this.#isSettledWithoutCompile(schema, 0, [])) {
      this.compile(schema);
      return;
    }
    this.#assertMetaSchema(schema);
    this.#checked.add(schema);
  }

  /**
   * {@link SchemaValidator.compile} that never throws: the validator, or the
   * {@link InvalidSchemaError} it would have thrown (any other failure is wrapped in one).
   */
  safeCompile(schema: JsonSchema | TSchema): SafeCompileResult {
    try {
      return { ok: true, value: this.compile(schema) };
    } catch (error) {
      if (error instanceof InvalidSchemaError) return { ok: false, error };
      return {
        ok: false,
        error: new InvalidSchemaError(`Invalid input schema: ${error instanceof Error ? error.message : String(error)}`, { cause: error }),
      };
    }
  }

  /**
   * Validates `args` against `schema`, compiling it on first use.
   *
   * @throws InvalidSchemaError when the schema itself is invalid.
   */
  validate(args: unknown, schema: JsonSchema | TSchema): ValidationResult {
    return this.compile(schema)(args);
  }

  /**
   * Applies clamps to the top-level fields of `args`: numbers bounded to `[min, max]`, strings cut to
   * `maxLength` characters (code points); absent or null fields are untouched. Returns `args` itself
   * when nothing changes, otherwise a shallow copy.
   */
  applyClamps(args: Readonly<Record<string, unknown>>, clamps: Readonly<Record<string, ClampRule>>): Readonly<Record<string, unknown>> {
    return applyClamps(args, clamps);
  }

  #compileWithAjv(schema: JsonSchema): ValidateFunction {
    this.#allowAnnotationKeywords(schema);
    this.#assertMetaSchema(schema);
    try {
      return this.#ajv.compile(schema);
    } catch (error) {
      throw toInvalidSchemaError(error, schema);
    }
  }

  #assertMetaSchema(schema: JsonSchema): void {
    let metaValid: boolean;
    try {
      metaValid = this.#ajv.validateSchema(schema) as boolean;
    } catch (error) {
      throw toInvalidSchemaError(error, schema);
    }
    if (!metaValid) {
      const { message, path } = describeMetaSchemaErrors(this.#ajv.errors ?? []);
      throw new InvalidSchemaError(`Invalid input schema ${message}`, { schemaPath: path });
    }
  }

  /**
   * True when passing the meta-schema is enough for ajv to compile `node` under strict mode: every
   * keyword is one whose valid values ajv always accepts, every format is known, every pattern is a
   * regular expression. False means "only a compile can tell", never "invalid". It follows ajv's
   * own reading of a schema (`for…in` over the keys, `undefined` values ignored).
   */
  #isSettledWithoutCompile(node: unknown, depth: number, ancestors: object[]): boolean {
    if (typeof node === 'boolean') return true;
    if (!isPlainObject(node) || depth > MAX_SETTLED_DEPTH || ancestors.includes(node)) return false;
    ancestors.push(node);
    try {
      for (const key in node) {
        const value = node[key];
        if (SETTLED_BY_META_SCHEMA.has(key) || (value === undefined && this.#ajv.RULES.keywords[key] !== undefined)) continue;
        if (ONE_SUBSCHEMA.has(key)) {
          if (!this.#isSettledWithoutCompile(value, depth + 1, ancestors)) return false;
        } else if (SUBSCHEMA_LIST.has(key)) {
          if (!Array.isArray(value) || !value.every((child: unknown) => this.#isSettledWithoutCompile(child, depth + 1, ancestors)))
            return false;
        } else if (key === 'properties') {
          if (!isPlainObject(value) || Object.hasOwn(value, '__proto__')) return false;
          for (const name in value) if (!this.#isSettledWithoutCompile(value[name], depth + 1, ancestors)) return false;
        } else if (key === 'enum') {
          if (!Array.isArray(value) || value.length === 0) return false;
        } else if (key === 'pattern') {
          if (!isUnicodePattern(value)) return false;
        } else if (key === 'format') {
          if (typeof value !== 'string' || (this.#ajv.opts.validateFormats && this.#ajv.formats[value] === undefined)) return false;
        } else if (key === '$schema') {
          if (depth !== 0 || value !== DEFAULT_META_SCHEMA) return false;
        } else if (!key.startsWith('x-') || !this.#allowAnnotationKeyword(key)) {
          return false;
        }
      }
      return true;
    } finally {
      ancestors.pop();
    }
  }

  /** Registers every `x-` key found in the schema as an annotation-only ajv keyword. */
  #allowAnnotationKeywords(node: unknown): void {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith('x-')) this.#allowAnnotationKeyword(key);
      this.#allowAnnotationKeywords(child);
    }
  }

  /** Registers `key` as an annotation-only ajv keyword, once; false when ajv cannot take the name. */
  #allowAnnotationKeyword(key: string): boolean {
    if (!this.#annotationKeywords.has(key)) {
      this.#annotationKeywords.add(key);
      try {
        this.#ajv.addKeyword({ keyword: key });
      } catch {
        // A name ajv cannot take as a keyword; compile then reports it as unknown, with its path.
        this.#refusedAnnotationKeywords.add(key);
      }
    }
    return !this.#refusedAnnotationKeywords.has(key);
  }
}
