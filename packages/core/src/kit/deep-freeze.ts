/**
 * Freezes `value` and every object and array reachable from it, in place, and returns it. Already
 * frozen objects are still walked, so a frozen shell cannot hide a mutable inside. Typed arrays
 * are left as they are (they cannot be frozen).
 *
 * @example
 * const args = deepFreeze({ user: { id: 7 } });
 * Object.isFrozen(args.user); // true
 */
export function deepFreeze<T>(value: T): T {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    // Typed arrays with elements cannot be frozen; their contents are bytes, not references.
    if (ArrayBuffer.isView(next)) continue;
    seen.add(next);
    Object.freeze(next);
    for (const key of Reflect.ownKeys(next)) {
      const descriptor = Object.getOwnPropertyDescriptor(next, key);
      if (descriptor !== undefined && 'value' in descriptor) stack.push(descriptor.value);
    }
  }
  return value;
}
