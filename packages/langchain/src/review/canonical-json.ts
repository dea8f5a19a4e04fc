/**
 * JSON with object keys sorted at every depth, so two argument objects that differ only in key
 * order compare equal and any other difference compares unequal. Null for a value JSON cannot
 * hold (a cycle, a BigInt): such a value equals nothing, not even itself.
 */
export function canonicalJson(value: unknown): string | null {
  try {
    return JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
      return sorted;
    });
  } catch {
    return null;
  }
}
