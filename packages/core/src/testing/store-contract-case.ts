/**
 * One check of a store contract suite: a name that reads as the behaviour it checks, and a `run`
 * that builds a fresh store, exercises it and resolves when the store behaved, or rejects with a
 * {@link StoreContractError} saying what it did instead. Cases are independent and may run in any
 * order, one at a time.
 */
export interface StoreContractCase {
  /** What the case checks, e.g. `consume redeems a token exactly once when many callers race`. */
  readonly name: string;
  /** Runs the case against a fresh store. */
  run(): Promise<void>;
}

/**
 * How a contract suite gets and drives the stores it tests.
 *
 * @typeParam Store - the contract under test.
 * @typeParam Settings - what a case asks of a fresh store (e.g. a token lifetime); `void` when nothing.
 */
export interface StoreContractHarness<Store, Settings = void> {
  /** Builds a fresh, empty store for one case, configured with `settings`. */
  readonly create: (settings: Settings) => Store | Promise<Store>;
  /**
   * Releases a store once its case has finished (closes a connection, deletes a file); optional.
   * A method, so a harness built for a concrete store class fits a suite of its contract.
   */
  dispose?(store: Store): void | Promise<void>;
  /**
   * Makes `milliseconds` pass for the stores, for the cases about expiry and windows. Give it when
   * the stores read an injected or fake clock (advance that clock); without it the suite waits the
   * time out in real time, a few seconds per such case.
   */
  readonly advanceTime?: (milliseconds: number) => void | Promise<void>;
}

/** A harness, or only its `create` function when the defaults of the other fields suit. */
export type StoreContractSubject<Store, Settings = void> =
  | StoreContractHarness<Store, Settings>
  | ((settings: Settings) => Store | Promise<Store>);
