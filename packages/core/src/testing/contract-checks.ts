// Internal to the contract suites: assertions that throw StoreContractError, a deep equality for
// plain data, and the wrapper that turns case bodies into frozen, self-contained cases.
import { StoreContractError } from './store-contract-error.js';
import type { StoreContractCase, StoreContractHarness, StoreContractSubject } from './store-contract-case.js';

/** Renders a value for a failure message; never throws. */
export function describeValue(value: unknown): string {
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item)) ?? String(value);
  } catch {
    return String(value);
  }
}

/** True when two values hold the same plain data (objects compared by own enumerable keys, Dates by time). */
export function isSameData(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (left instanceof Date || right instanceof Date) {
    return left instanceof Date && right instanceof Date && left.getTime() === right.getTime();
  }
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left).sort();
  const rightKeys = Object.keys(right).sort();
  if (leftKeys.length !== rightKeys.length || leftKeys.some((key, index) => key !== rightKeys[index])) return false;
  return leftKeys.every((key) => isSameData((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]));
}

/** Throws unless `condition` holds; `expectation` says what the contract promises. */
export function check(condition: boolean, expectation: string, ...actual: [unknown?]): asserts condition {
  if (!condition) {
    throw new StoreContractError(actual.length > 0 ? `${expectation}; got ${describeValue(actual[0])}.` : `${expectation}.`);
  }
}

/** Throws unless `actual` holds the same data as `expected`. */
export function checkSame(actual: unknown, expected: unknown, what: string): void {
  if (!isSameData(actual, expected)) {
    throw new StoreContractError(`${what} should be ${describeValue(expected)}; got ${describeValue(actual)}.`);
  }
}

/** Waits `milliseconds` of real time. */
function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** What a case body receives: its store and a way to let time pass for it. */
export interface CaseTools<Store, Settings> {
  /** Builds another fresh store (disposed with the case). */
  readonly create: (settings: Settings) => Promise<Store>;
  /** Lets `milliseconds` pass for the store. */
  readonly advanceTime: (milliseconds: number) => Promise<void>;
}

/** A case as a suite writes it. */
export interface CaseDefinition<Store, Settings> {
  readonly name: string;
  readonly settings: Settings;
  readonly body: (store: Store, tools: CaseTools<Store, Settings>) => Promise<void>;
}

/** Turns case definitions into frozen {@link StoreContractCase}s that create and dispose their stores. */
export function buildCases<Store, Settings>(
  suite: string,
  subject: StoreContractSubject<Store, Settings>,
  definitions: readonly CaseDefinition<Store, Settings>[],
): readonly StoreContractCase[] {
  const harness: StoreContractHarness<Store, Settings> = typeof subject === 'function' ? { create: subject } : subject;
  if (typeof harness?.create !== 'function') {
    throw new TypeError(`${suite} needs a function that creates a store, or a harness with one as "create".`);
  }
  const advanceTime = async (milliseconds: number): Promise<void> => {
    if (harness.advanceTime === undefined) await sleep(milliseconds);
    else await harness.advanceTime(milliseconds);
  };
  return Object.freeze(
    definitions.map(({ name, settings, body }) =>
      Object.freeze({
        name,
        async run(): Promise<void> {
          const created: Store[] = [];
          const create = async (options: Settings): Promise<Store> => {
            const store = await harness.create(options);
            created.push(store);
            return store;
          };
          try {
            await body(await create(settings), { create, advanceTime });
          } finally {
            for (const store of created) await harness.dispose?.(store);
          }
        },
      }),
    ),
  );
}
