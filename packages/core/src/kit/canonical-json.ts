/**
 * JSON with every object's keys sorted at every depth, so two values that differ only in key order
 * give the same text and any other difference gives different text. `undefined` members are left
 * out as `JSON.stringify` leaves them out; `toJSON` is honoured. Null for a value JSON cannot hold
 * (a cycle, a BigInt, a top-level `undefined` or function): such a value equals nothing, not even
 * itself.
 *
 * @example
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function canonicalJson(value: unknown): string | null {
  try {
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
      const record = inner as Record<string, unknown>;
      // A null prototype: a `__proto__` key is copied as data, never as the copy's prototype.
      const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(record).sort()) sorted[key] = record[key];
      return sorted;
    });
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}
