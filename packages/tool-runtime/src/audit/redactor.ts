import { MilpaError, type JsonSchema, type TSchema } from '@milpa/core';

/** The value that replaces a secret in logs, audit records and runtime-written messages. */
export const REDACTED = '***REDACTED***';

/**
 * Argument names redacted by default: the usual credential names and the confirmation token.
 * Matching ignores case, `-` and `_`, so `apiKey`, `API-KEY` and `api_key` are all caught.
 */
export const DEFAULT_SENSITIVE_FIELDS: readonly string[] = Object.freeze([
  'password',
  'token',
  'secret',
  'api_key',
  'apiKey',
  'access_token',
  'refresh_token',
  'client_secret',
  'authorization',
  'cookie',
  'private_key',
  'confirm_token',
]);

/** Deeper structures are cut off (and the cut-off part never logged): logs need no more, and a hostile payload cannot exhaust the stack. */
const MAX_DEPTH = 32;
/**
 * Objects one copy may hold before the rest is cut off the same way: one object reused under two
 * keys, n levels deep, is reached through 2^n paths, and a copy of each would never finish.
 */
const MAX_COPIED_OBJECTS = 10_000;
/** Steps a secret collection may take under a schema before it drops the schema: only a cyclic schema object (which no registry compiles) gets near it. */
const MAX_SCHEMA_STEPS = 1_000_000;
const CONTEXT_KEY = '_ctx';
const NO_SCHEMAS: readonly object[] = Object.freeze([]);

/** One value waiting in the secret collection's walk. */
interface CollectStep {
  readonly value: unknown;
  readonly schemas: readonly object[];
  /** True when the value sits under a secret field: every string and number in it is a secret. */
  readonly secret: boolean;
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function ownField(container: unknown, key: string): unknown {
  return isObject(container) && Object.hasOwn(container, key) ? container[key] : undefined;
}

/** The schema and its `allOf` / `anyOf` / `oneOf` branches: a property marked secret in any of them is secret. */
function expand(schema: unknown, into: object[], depth = 0): void {
  if (!isObject(schema) || depth > 8) return;
  into.push(schema);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const branches = ownField(schema, keyword);
    if (Array.isArray(branches)) for (const branch of branches) expand(branch, into, depth + 1);
  }
}

function schemasOf(schema: unknown): readonly object[] {
  if (!isObject(schema)) return NO_SCHEMAS;
  const found: object[] = [];
  expand(schema, found);
  return found;
}

function propertySchemas(schemas: readonly object[], key: string): readonly object[] {
  if (schemas.length === 0) return NO_SCHEMAS;
  const found: object[] = [];
  for (const schema of schemas) {
    const properties = ownField(schema, 'properties');
    const declared = ownField(properties, key);
    if (declared !== undefined) expand(declared, found);
    else expand(ownField(schema, 'additionalProperties'), found);
  }
  return found;
}

function itemSchemas(schemas: readonly object[], index: number): readonly object[] {
  if (schemas.length === 0) return NO_SCHEMAS;
  const found: object[] = [];
  for (const schema of schemas) {
    const prefixItems = ownField(schema, 'prefixItems');
    if (Array.isArray(prefixItems) && index < prefixItems.length) expand(prefixItems[index], found);
    else expand(ownField(schema, 'items'), found);
  }
  return found;
}

function isSecretSchema(schemas: readonly object[]): boolean {
  return schemas.some((schema) => ownField(schema, 'writeOnly') === true || ownField(schema, 'x-milpa-secret') === true);
}

function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  // A `__proto__` key from JSON.parse must stay an ordinary field, never reach the prototype.
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes secrets from values before they reach a log line, an audit record or a message.
 *
 * A field is secret when its key, normalized (lower-cased, `-` and `_` removed), is one of the
 * sensitive names, or when the tool's schema marks the property at that path `writeOnly: true` or
 * `'x-milpa-secret': true`. Its whole value — string, number, object, list — becomes
 * {@link REDACTED}, at any depth. `_ctx` keys are dropped.
 *
 * @example
 * const redactor = new Redactor();
 * redactor.redact({ user: 'ada', API_KEY: 'k-123', nested: { Password: 'x' } });
 * // { user: 'ada', API_KEY: '***REDACTED***', nested: { Password: '***REDACTED***' } }
 */
export class Redactor {
  readonly #fields = new Set<string>();
  /** Objects the running `redact()` may still copy. */
  #copiesLeft = 0;

  /** @param fields The sensitive names; default {@link DEFAULT_SENSITIVE_FIELDS}. */
  constructor(fields: readonly string[] = DEFAULT_SENSITIVE_FIELDS) {
    for (const field of fields) this.addSensitiveField(field);
  }

  /**
   * Adds a sensitive name (matched like the defaults: case, `-` and `_` ignored).
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a name that is empty once normalized.
   */
  addSensitiveField(name: string): void {
    if (typeof name !== 'string' || normalizeKey(name) === '') {
      throw new MilpaError(`A sensitive field name must be a non-empty string, got ${JSON.stringify(name)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#fields.add(normalizeKey(name));
  }

  /** True when `key` names a sensitive field (`Password`, `api-key`, `clientSecret`, …). */
  isSensitiveKey(key: string): boolean {
    return typeof key === 'string' && this.#fields.has(normalizeKey(key));
  }

  /**
   * A deep copy of `value` with every secret replaced by {@link REDACTED} and `_ctx` dropped. Cycles
   * become `'[Circular]'`, structures deeper than 32 levels (or past the first 10,000 objects)
   * `'[Truncated]'`, unreadable fields `'[Unreadable]'`. Never throws (if copying fails, the whole
   * value is redacted).
   */
  redact(value: unknown, schema: JsonSchema | TSchema | null = null): unknown {
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
   * Never throws (if scrubbing fails, the whole text is redacted).
   */
  scrub(text: string, secrets: readonly string[]): string {
    try {
      const variants = new Set<string>();
      for (const secret of secrets) {
        if (typeof secret !== 'string' || secret === '') continue;
        variants.add(secret);
        const escaped = JSON.stringify(secret).slice(1, -1);
        if (escaped !== secret) variants.add(escaped);
      }
      if (variants.size === 0) return text;
      const pattern = [...variants]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|');
      return String(text).replace(new RegExp(pattern, 'g'), REDACTED);
    } catch {
      return REDACTED;
    }
  }

  #copy(value: unknown, schemas: readonly object[], depth: number, ancestors: Set<object>): unknown {
    switch (typeof value) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'undefined':
        return value;
      case 'bigint':
        return value.toString();
      case 'symbol':
        return value.toString();
      case 'function':
        return undefined;
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
        return object.map((item, index) => this.#copy(item, itemSchemas(schemas, index), depth + 1, ancestors));
      }
      if (object instanceof Set) {
        return [...object].map((item, index) => this.#copy(item, itemSchemas(schemas, index), depth + 1, ancestors));
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
        const children: CollectStep[] = [];
        if (Array.isArray(value) || value instanceof Set) {
          let index = 0;
          for (const item of value) children.push({ value: item, schemas: itemSchemas(schemas, index++), secret });
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
            children.push({ value: inner, schemas: childSchemas, secret: secret || this.isSensitiveKey(key) || isSecretSchema(childSchemas) });
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
