const SLOT_BRAND = Symbol.for('milpa.InterceptionSlot');

/**
 * The mutable companion of a readonly `tool.executing` event: a listener may veto the call
 * (`stop()`) or answer on the tool's behalf (`shortCircuit(value)`). A stopped slot ends the
 * dispatch after the listener that stopped it. There is no way to un-stop.
 *
 * @example
 * dispatcher.subscribe('tool.executing', (_name, { event, slot }) => {
 *   const cached = cache.get(event.name);
 *   if (cached !== undefined) slot.shortCircuit(cached);
 * });
 */
export class InterceptionSlot<T = unknown> {
  #stopped = false;
  #hasResult = false;
  #result: T | null = null;

  /** True when `value` is an `InterceptionSlot` from any copy of `@milpa/core`. */
  static isInstance(value: unknown): value is InterceptionSlot {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SLOT_BRAND] === true;
  }

  /** Veto: stops the dispatch and leaves any result untouched. */
  stop(): void {
    this.#stopped = true;
  }

  /** Answer on the tool's behalf: sets the result (null and falsy values count) and stops. */
  shortCircuit(value: T): void {
    this.#result = value;
    this.#hasResult = true;
    this.#stopped = true;
  }

  /** True once `stop()` or `shortCircuit()` was called. */
  isStopped(): boolean {
    return this.#stopped;
  }

  /** True once `shortCircuit()` was called. */
  hasResult(): boolean {
    return this.#hasResult;
  }

  /** The short-circuit value, or null when there is none. */
  getResult(): T | null {
    return this.#result;
  }
}

Object.defineProperty(InterceptionSlot.prototype, SLOT_BRAND, { value: true });
