/**
 * Values remembered per tool, keyed by the tool's input schema object and then its name: a fresh
 * summary of a known tool (the registry builds new summaries on every call) finds the value of
 * the same tool, and the entry goes when the schema does. The usual schema of its own holds one
 * entry; a schema several tools share holds one per name.
 */
export class SchemaNameCache<T> {
  readonly #entries = new WeakMap<object, { readonly name: string; readonly value: T } | Map<string, T>>();

  /** The value of the tool named `name` with schema `schema`, or undefined. */
  get(schema: object, name: string): T | undefined {
    const entry = this.#entries.get(schema);
    if (entry instanceof Map) return entry.get(name);
    return entry?.name === name ? entry.value : undefined;
  }

  /** Remembers `value` for the tool named `name` with schema `schema`, replacing an earlier one. */
  set(schema: object, name: string, value: T): void {
    const entry = this.#entries.get(schema);
    if (entry === undefined || (!(entry instanceof Map) && entry.name === name)) {
      this.#entries.set(schema, { name, value });
    } else if (entry instanceof Map) {
      entry.set(name, value);
    } else {
      this.#entries.set(
        schema,
        new Map([
          [entry.name, entry.value],
          [name, value],
        ]),
      );
    }
  }
}
