import type { ClampRule, JsonSchema, TSchema } from '@milpa/core';
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { applyClamps } from './apply-clamps.js';
import { describeValidationErrors } from './describe-validation-errors.js';
import { InvalidSchemaError } from './invalid-schema-error.js';
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

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON Pointer of the first schema object that has `keyword` as an own key. */
function findKeyword(node: unknown, keyword: string, path: string, seen: Set<object>): string | null {
  if (typeof node !== 'object' || node === null || seen.has(node)) return null;
  seen.add(node);
  if (!Array.isArray(node) && Object.hasOwn(node, keyword)) return path;
  for (const [key, child] of Object.entries(node)) {
    const found = findKeyword(child, keyword, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, seen);
    if (found !== null) return found;
  }
  return null;
}

function describeMetaSchemaErrors(errors: readonly ErrorObject[]): { message: string; path: string } {
  const byPath = new Map<string, string>();
  for (const error of errors) {
    if (byPath.has(error.instancePath)) continue;
    const allowed = (error.params as Record<string, unknown>)['allowedValues'];
    const detail = Array.isArray(allowed) ? `: ${allowed.map(String).join(', ')}` : '';
    byPath.set(error.instancePath, `${error.message ?? 'is invalid'}${detail}`);
  }
  const entries = [...byPath].map(([path, message]) => `at #${path}: ${message}`);
  return { message: entries.join('; '), path: `#${[...byPath.keys()][0] ?? ''}` };
}

function toInvalidSchemaError(error: unknown, schema: JsonSchema): InvalidSchemaError {
  const text = error instanceof Error ? error.message : String(error);
  const unknownKeyword = /unknown keyword: "([^"]*)"/.exec(text);
  if (unknownKeyword !== null) {
    const keyword = unknownKeyword[1] ?? '';
    const path = findKeyword(schema, keyword, '#', new Set()) ?? '#';
    return new InvalidSchemaError(
      `Invalid input schema at ${path}: unknown keyword "${keyword}". Check the spelling; custom annotations need an "x-" prefix.`,
      { schemaPath: path, cause: error },
    );
  }
  const unknownFormat = /unknown format "([^"]*)" ignored in schema at path "([^"]*)"/.exec(text);
  if (unknownFormat !== null) {
    const path = unknownFormat[2] ?? '#';
    return new InvalidSchemaError(`Invalid input schema at ${path}: unknown format "${unknownFormat[1] ?? ''}".`, {
      schemaPath: path,
      cause: error,
    });
  }
  return new InvalidSchemaError(`Invalid input schema: ${text}`, { cause: error });
}

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
  applyClamps(
    args: Readonly<Record<string, unknown>>,
    clamps: Readonly<Record<string, ClampRule>>,
  ): Readonly<Record<string, unknown>> {
    return applyClamps(args, clamps);
  }

  #compileWithAjv(schema: JsonSchema): ValidateFunction {
    this.#allowAnnotationKeywords(schema);
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
    try {
      return this.#ajv.compile(schema);
    } catch (error) {
      throw toInvalidSchemaError(error, schema);
    }
  }

  /** Registers every `x-` key found in the schema as an annotation-only ajv keyword. */
  #allowAnnotationKeywords(node: unknown): void {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith('x-') && !this.#annotationKeywords.has(key)) {
        this.#annotationKeywords.add(key);
        try {
          this.#ajv.addKeyword({ keyword: key });
        } catch {
          // A name ajv cannot take as a keyword; compile then reports it as unknown, with its path.
        }
      }
      this.#allowAnnotationKeywords(child);
    }
  }
}
