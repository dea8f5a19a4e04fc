import { MilpaError, type JsonSchema, type TSchema } from '@milpa/core';
import { REDACTED } from './redacted.js';
import { NO_SCHEMAS, isObject, isSecretSchema, itemSchemas, propertySchemas, schemasOf, topLevelSecretsOf } from './schema-secrets.js';
import { DEFAULT_SENSITIVE_FIELDS, SecretNames, compactName } from './secret-names.js';
import { NOT_FLAT, isFlatValue, isPlainRecord, setField } from './redactor-values.js';
import { scrubLiterals, scrubShapes } from './secret-shapes.js';

export { REDACTED } from './redacted.js';
export { DEFAULT_SENSITIVE_FIELDS } from './secret-names.js';

/** Options of a {@link Redactor}. */
export interface RedactorOptions {
  /** Expressions whose every match in a string value or a scrubbed text is replaced by {@link REDACTED}. */
  readonly patterns?: readonly RegExp[];
}

/** Deeper structures are cut off (and the cut-off part never logged): logs need no more, and a hostile payload cannot exhaust the stack. */
const MAX_DEPTH = 32;
/**
 * Objects one copy may hold before the rest is cut off the same way: one object reused under two
 * keys, n levels deep, is reached through 2^n paths, and a copy of each would never finish.
 */
const MAX_COPIED_OBJECTS = 10_000;
/**
 * Steps a secret collection may take under a schema before it drops the schema: only a cyclic schema object (which no registry compiles)
 * gets near it.
 */
const MAX_SCHEMA_STEPS = 1_000_000;
const CONTEXT_KEY = '_ctx';
/**
 * Key verdicts the redactor remembers before starting over: enough for every tool's own names, bounded against callers that invent keys.
 */
const MAX_REMEMBERED_KEYS = 4_096;

/** One value waiting in the secret collection's walk. */
interface CollectStep {
  readonly value: unknown;
  readonly schemas: readonly object[];
  /** True when the value sits under a secret field: every string and number in it is a secret. */
  readonly secret: boolean;
}

/**
 * Removes secrets from values before they reach a log line, an audit record or a message.
 *
 * A field is secret when its name means so, or when the tool's schema marks the value at that path
 * (`writeOnly: true`, `format: 'password'` or `'x-milpa-secret': true`, array items included). Its
 * whole value — string, number, object, list — becomes {@link REDACTED}, at any depth. A name means
 * a secret when, compacted (lower-cased, everything but letters and digits removed), it contains a
 * sensitive name of five characters or more, or, for a shorter one, when some of its words spell it
 * (words split at separators, camelCase humps and digits). A name caught only by `token` that
 * counts tokens — each `token` a whole word `token`/`tokens`, beside `max`, `min`, `total`, `num`,
 * `count`, `limit`, `budget`, `usage`, `used` or `remaining`, or `tokens` beside `input`, `output`,
 * `prompt`, `completion`, `reasoning` or `cached` — is not secret. `_ctx` keys are dropped.
 *
 * Secrets are also recognised by their shape in every string, whatever its field: `Bearer` and
 * `Basic` credentials, JWTs, AWS access key ids, GitHub, OpenAI and Slack tokens, PEM private keys,
 * the userinfo of URLs, and the values of `name=value` pairs (query parameters, cookies, logfmt) and
 * JSON members whose name means a secret (for parameters, `key`, `sig` and `signature` too). Only
 * the secret part goes: `https://***REDACTED***@host/path?user=ada&token=***REDACTED***`.
 *
 * @example
 * const redactor = new Redactor();
 * redactor.redact({ user: 'ada', db_password: 'x', headers: { 'X-Api-Key': 'k' }, url: 'https://a:b@host/' });
 * // { user: 'ada', db_password: '***REDACTED***', headers: { 'X-Api-Key': '***REDACTED***' }, url: 'https://***REDACTED***@host/' }
 */
export class Redactor {
  readonly #names = new SecretNames();
  readonly #patterns: RegExp[] = [];
  readonly #isSecretName = (name: string): boolean => this.isSensitiveKey(name);
  /** Raw key → whether it is sensitive: normalizing costs a regex replace, and calls repeat the same few keys. */
  readonly #keyVerdicts = new Map<string, boolean>();
  /** Objects the running `redact()` may still copy. */
  #copiesLeft = 0;

  /**
   * @param fields The sensitive names; default {@link DEFAULT_SENSITIVE_FIELDS} (a list replaces them).
   * @param options Value patterns to redact besides the built-in shapes.
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed name or pattern.
   */
  constructor(fields: readonly string[] = DEFAULT_SENSITIVE_FIELDS, options: RedactorOptions = {}) {
    for (const field of fields) this.addSensitiveField(field);
    for (const pattern of options.patterns ?? []) this.addSensitivePattern(pattern);
  }

  /**
   * Adds a sensitive name, matched like the defaults: case, separators and spacing ignored, and as
   * part of a longer name too (a name of four letters or digits or fewer as whole words only, so
   * `pin` catches `user_pin` and `pinCode` but not `shipping`).
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a name without a letter or digit.
   */
  addSensitiveField(name: string): void {
    if (typeof name !== 'string' || compactName(name) === '') {
      throw new MilpaError(`A sensitive field name must be a non-empty string, got ${JSON.stringify(name)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#names.add(name);
    this.#keyVerdicts.clear();
  }

  /**
   * Adds a value pattern: every match of it in a string value (by {@link Redactor.redact}) or in a
   * text (by {@link Redactor.scrub}) becomes {@link REDACTED}. The redactor keeps its own global
   * copy, so the caller's expression and its `lastIndex` are never touched. It runs on every string
   * of every audited call: keep it simple and anchored on something distinctive.
   *
   * @example
   * redactor.addSensitivePattern(/\bACME-[0-9A-F]{32}\b/);
   * @throws MilpaError `INVALID_ARGUMENT` for anything but a regular expression.
   */
  addSensitivePattern(pattern: RegExp): void {
    if (!(pattern instanceof RegExp)) {
      throw new MilpaError(`A sensitive pattern must be a regular expression, got ${String(pattern)}.`, { code: 'INVALID_ARGUMENT' });
    }
    this.#patterns.push(new RegExp(pattern.source, `${pattern.flags.replace(/[gy]/g, '')}g`));
  }

  /** True when `key` names a sensitive field (`Password`, `db_password`, `X-Api-Key`, `sessionToken`, …). */
  isSensitiveKey(key: string): boolean {
    if (typeof key !== 'string') return false;
    let verdict = this.#keyVerdicts.get(key);
    if (verdict === undefined) {
      verdict = this.#names.matches(key);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: when the cache starts over decides only memory and
      // speed; a forgotten verdict is worked out again the same.
      if (this.#keyVerdicts.size >= MAX_REMEMBERED_KEYS) this.#keyVerdicts.clear();
      this.#keyVerdicts.set(key, verdict);
    }
    return verdict;
  }

  /**
   * A deep copy of `value` with every secret replaced by {@link REDACTED} and `_ctx` dropped. Cycles
   * become `'[Circular]'`, structures deeper than 32 levels (or past the first 10,000 objects)
   * `'[Truncated]'`, unreadable fields `'[Unreadable]'`. Never throws (if copying fails, the whole
   * value is redacted).
   *
   * Flat arguments (a plain object of strings, numbers, booleans and nulls, the usual case) take a
   * shorter path with the same result: one shallow copy, each key checked by name and against the
   * schema's top-level secret properties. Every string kept is scrubbed of secret shapes and of the
   * added patterns, see {@link Redactor.scrubShapes}.
   */
  redact(value: unknown, schema: JsonSchema | TSchema | null = null): unknown {
    const flat = this.#redactFlat(value, schema);
    if (flat !== NOT_FLAT) return flat;
    this.#copiesLeft = MAX_COPIED_OBJECTS;
    try {
      return this.#copy(value, schemasOf(schema), 0, new Set());
    } catch {
      return REDACTED;
    }
  }

  /**
   * The string and number values stored under secret fields of `value`, at any depth, for
   * {@link Redactor.scrub}bing free text such as error messages. Never throws.
   */
  collectSecrets(value: unknown, schema: JsonSchema | TSchema | null = null): string[] {
    const flat = this.#collectFlat(value, schema);
    if (flat !== NOT_FLAT) return flat;
    const secrets = new Set<string>();
    try {
      this.#collect(value, schemasOf(schema), secrets);
    } catch {
      // Whatever was collected before the failure is still worth scrubbing.
    }
    return [...secrets];
  }

  /**
   * `text` with every occurrence of each non-empty secret (and its JSON-escaped form) replaced by
   * {@link REDACTED}; longer secrets first, so one secret inside another never leaves a remnant.
   * Then, even without `secrets`, it is scrubbed of secret shapes and of the added patterns (see
   * {@link Redactor.scrubShapes}). Never throws (if scrubbing fails, the whole text is redacted).
   */
  scrub(text: string, secrets: readonly string[]): string {
    try {
      return this.scrubShapes(scrubLiterals(text, secrets));
    } catch {
      return REDACTED;
    }
  }

  /**
   * `text` with the secrets recognised by their shape (see {@link Redactor}) and every match of the
   * added patterns replaced by {@link REDACTED}, keeping what says what they were (a URL's scheme and
   * host, the `Bearer` word, a parameter's name). Text without a character any shape needs costs one
   * scan. Never throws (if scrubbing fails, the whole text is redacted).
   *
   * @example
   * redactor.scrubShapes('GET https://ada:pw@api.example.com/v1?access_token=abc failed');
   * // 'GET https://***REDACTED***@api.example.com/v1?access_token=***REDACTED*** failed'
   */
  scrubShapes(text: string): string {
    try {
      return scrubShapes(String(text), this.#isSecretName, this.#patterns);
    } catch {
      return REDACTED;
    }
  }

  /**
   * The copy of flat arguments, or {@link NOT_FLAT} for anything else (a nested value, an array, a
   * class instance, a getter that throws): the full walk then starts over. A secret key's value is
   * never read; every other value is read once and copied as read, so a getter cannot show one
   * value to the check and another to the log.
   */
  #redactFlat(value: unknown, schema: unknown): unknown {
    try {
      if (!isPlainRecord(value)) return NOT_FLAT;
      const secrets = topLevelSecretsOf(schema);
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (key === CONTEXT_KEY) continue;
        if (this.isSensitiveKey(key) || (secrets.declared.get(key) ?? secrets.undeclaredSecret)) {
          setField(copy, key, REDACTED);
          continue;
        }
        const inner = value[key];
        if (!isFlatValue(inner)) return NOT_FLAT;
        setField(copy, key, typeof inner === 'string' ? this.scrubShapes(inner) : inner);
      }
      return copy;
    } catch {
      return NOT_FLAT;
    }
  }

  /** The secret values of flat arguments (see {@link Redactor.redact}), or {@link NOT_FLAT}. */
  #collectFlat(value: unknown, schema: unknown): string[] | typeof NOT_FLAT {
    try {
      if (!isPlainRecord(value)) return NOT_FLAT;
      const secrets = topLevelSecretsOf(schema);
      const found: string[] = [];
      for (const key of Object.keys(value)) {
        const inner = value[key];
        if (isObject(inner)) return NOT_FLAT;
        if (!(this.isSensitiveKey(key) || (secrets.declared.get(key) ?? secrets.undeclaredSecret))) continue;
        if (typeof inner === 'string' || typeof inner === 'bigint' || (typeof inner === 'number' && Number.isFinite(inner))) {
          const text = String(inner);
          if (text !== '' && !found.includes(text)) found.push(text);
        }
      }
      return found;
    } catch {
      return NOT_FLAT;
    }
  }

  #copy(value: unknown, schemas: readonly object[], depth: number, ancestors: Set<object>): unknown {
    switch (typeof value) {
      case 'string':
        return this.scrubShapes(value);
      case 'number':
      case 'boolean':
      case 'undefined':
        return value;
      // Stryker disable next-line ConditionalExpression: equivalent: without its body this case falls through to the symbol case, which
      // returns value.toString() too.
      case 'bigint':
        return value.toString();
      case 'symbol':
        return value.toString();
      case 'function':
        return undefined;
      // Stryker disable next-line ConditionalExpression: equivalent: the default case is last, so without its break it still leaves the
      // switch.
      default:
        break;
    }
    if (value === null) return null;
    const object = value as object;
    if (depth >= MAX_DEPTH || this.#copiesLeft <= 0) return '[Truncated]';
    if (ancestors.has(object)) return '[Circular]';
    this.#copiesLeft -= 1;
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
    if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) return `[Binary ${object.byteLength} bytes]`;

    ancestors.add(object);
    try {
      if (Array.isArray(object)) {
        return object.map((item, index) => this.#copyItem(item, itemSchemas(schemas, index), depth, ancestors));
      }
      if (object instanceof Set) {
        return [...object].map((item, index) => this.#copyItem(item, itemSchemas(schemas, index), depth, ancestors));
      }
      const entries: [string, () => unknown][] =
        object instanceof Map
          ? [...object].map(([key, inner]) => [String(key), () => inner])
          : Object.keys(object).map((key) => [key, () => (object as Record<string, unknown>)[key]]);
      if (object instanceof Error) entries.push(['name', () => object.name], ['message', () => object.message]);
      const copy: Record<string, unknown> = {};
      for (const [key, read] of entries) {
        if (key === CONTEXT_KEY) continue;
        const childSchemas = propertySchemas(schemas, key);
        if (this.isSensitiveKey(key) || isSecretSchema(childSchemas)) {
          setField(copy, key, REDACTED);
          continue;
        }
        let inner: unknown;
        try {
          inner = read();
        } catch {
          setField(copy, key, '[Unreadable]');
          continue;
        }
        setField(copy, key, this.#copy(inner, childSchemas, depth + 1, ancestors));
      }
      return copy;
    } finally {
      ancestors.delete(object);
    }
  }

  /** An array or Set item: {@link REDACTED} when its schema marks it secret, else its copy. */
  #copyItem(item: unknown, schemas: readonly object[], depth: number, ancestors: Set<object>): unknown {
    return isSecretSchema(schemas) ? REDACTED : this.#copy(item, schemas, depth + 1, ancestors);
  }

  /**
   * Walks `root` without recursion and without a depth limit: a handler's error may quote arguments
   * nested deeper than the copy's cut-off, and their secrets must still be scrubbed from it. Where
   * no schema applies, an object is walked at most once as secret and once as not (all that decides
   * what it yields), so cycles end and shared references cannot make the walk exponential. Schema
   * levels are finite, so a walk under a schema ends too; a cyclic schema object loses its schema
   * after {@link MAX_SCHEMA_STEPS} steps rather than looping.
   */
  #collect(root: unknown, rootSchemas: readonly object[], into: Set<string>): void {
    const walked = { secret: new Set<object>(), plain: new Set<object>() };
    const pending: CollectStep[] = [{ value: root, schemas: rootSchemas, secret: false }];
    let schemaSteps = 0;
    for (let step = pending.pop(); step !== undefined; step = pending.pop()) {
      const { value, secret } = step;
      if (secret && (typeof value === 'string' || typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value)))) {
        const text = String(value);
        if (text !== '') into.add(text);
        continue;
      }
      if (!isObject(value)) continue;
      let schemas = step.schemas;
      if (schemas.length > 0 && ++schemaSteps > MAX_SCHEMA_STEPS) schemas = NO_SCHEMAS;
      if (schemas.length === 0) {
        const seen = secret ? walked.secret : walked.plain;
        if (seen.has(value)) continue;
        seen.add(value);
      }
      try {
        // Stryker disable next-line ArrayDeclaration: equivalent: an extra string step has no value or secret fields, so the walk skips it
        // as a non-object.
        const children: CollectStep[] = [];
        if (Array.isArray(value) || value instanceof Set) {
          let index = 0;
          for (const item of value) {
            const itemSchemasOf = itemSchemas(schemas, index++);
            children.push({ value: item, schemas: itemSchemasOf, secret: secret || isSecretSchema(itemSchemasOf) });
          }
        } else {
          const entries: [string, unknown][] = value instanceof Map ? [...value].map(([key, inner]) => [String(key), inner]) : [];
          if (!(value instanceof Map)) {
            for (const key of Object.keys(value)) {
              try {
                entries.push([key, value[key]]);
              } catch {
                // An unreadable field holds nothing we could scrub.
              }
            }
          }
          for (const [key, inner] of entries) {
            const childSchemas = propertySchemas(schemas, key);
            children.push({
              value: inner,
              schemas: childSchemas,
              secret: secret || this.isSensitiveKey(key) || isSecretSchema(childSchemas),
            });
          }
        }
        // Reversed onto the stack, so values are met in document order.
        for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
      } catch {
        // A container that cannot be listed (a throwing iterator) holds nothing we could scrub; the rest still counts.
      }
    }
  }
}
