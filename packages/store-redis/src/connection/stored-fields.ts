import { isRecord } from '@milpa/core/kit';
import type { RedisStoreError } from '../errors/redis-store-error.js';

/**
 * Reads the fields of a JSON object a store wrote, each with its expected type; the first field
 * that is missing or of another type throws the store's `malformed` failure. Times are stored as
 * epoch milliseconds.
 */
export class StoredFields {
  readonly #fields: Readonly<Record<string, unknown>>;
  readonly #malformed: (field: string) => RedisStoreError;

  private constructor(fields: Readonly<Record<string, unknown>>, malformed: (field: string) => RedisStoreError) {
    this.#fields = fields;
    this.#malformed = malformed;
  }

  /** The fields of `value`, which must be a JSON object; `malformed` builds the failure naming a bad field. */
  static of(value: unknown, malformed: (field: string) => RedisStoreError): StoredFields {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed('the value is not a JSON object');
    return new StoredFields(value as Record<string, unknown>, malformed);
  }

  /** A string field. */
  text(name: string): string {
    return this.#read(name, (value): value is string => typeof value === 'string');
  }

  /** A boolean field. */
  flag(name: string): boolean {
    return this.#read(name, (value): value is boolean => typeof value === 'boolean');
  }

  /** A string field that may be null. */
  textOrNull(name: string): string | null {
    return this.#read(name, (value): value is string | null => value === null || typeof value === 'string');
  }

  /** A time field, as a Date. */
  time(name: string): Date {
    return new Date(this.#read(name, isTime));
  }

  /** A time field that may be null. */
  timeOrNull(name: string): Date | null {
    const value = this.#read(name, (inner): inner is number | null => inner === null || isTime(inner));
    return value === null ? null : new Date(value);
  }

  /** A whole number of at least 0. */
  count(name: string): number {
    return this.#read(name, (value): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0);
  }

  /** A JSON object field (not an array). */
  object(name: string): Readonly<Record<string, unknown>> {
    return this.#read(name, isRecord);
  }

  /** A JSON object field that may be absent or null; undefined then. */
  optionalObject(name: string): Readonly<Record<string, unknown>> | undefined {
    const value = this.#fields[name];
    return value === undefined || value === null ? undefined : this.object(name);
  }

  /** An array field, each item read by `item` (which throws through {@link StoredFields.of} for a bad one). */
  list<T>(name: string, item: (value: unknown) => T): readonly T[] {
    return Object.freeze(this.#read(name, Array.isArray).map(item));
  }

  /** An array of strings. */
  texts(name: string): readonly string[] {
    return Object.freeze([
      ...this.#read(name, (value): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string')),
    ]);
  }

  /** A field holding one of `values`. */
  oneOf<T extends string>(name: string, values: readonly T[]): T {
    return this.#read(name, (value): value is T => values.includes(value as T));
  }

  /** A field as it is, unchecked. */
  raw(name: string): unknown {
    return this.#fields[name];
  }

  #read<T>(name: string, accepts: (value: unknown) => value is T): T {
    const value = this.#fields[name];
    if (!accepts(value)) throw this.#malformed(`field ${name}`);
    return value;
  }
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
