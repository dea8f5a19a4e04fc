import { describe, expect, it } from 'vitest';
import type { InvocationHistoryStore } from '../contracts/invocation-history-store.js';
import type { InvocationReservation } from '../contracts/invocation-history-store.js';
import { InvocationHistory, type InFlightInvocation, type InvocationObservation } from '../invocation/invocation-history.js';
import { failingCaseNames } from './contract-failures.test-helper.js';
import { invocationHistoryStoreContract } from './invocation-history-store-contract.js';
import type { StoreContractHarness } from './store-contract-case.js';

interface Flaws {
  /** startRun empties a known run. */
  readonly resets?: boolean;
  /** the observation object is kept as given, extra fields included. */
  readonly keepsExtras?: boolean;
  /** a run first seen through append counts as complete. */
  readonly trustsUnknownRuns?: boolean;
  /** append reads, yields, then writes back: overlapping appends lose observations. */
  readonly racy?: boolean;
  /** reserve reads the history, yields, then takes its place: parallel calls miss each other. */
  readonly racyReserve?: boolean;
  /** settle records the observation but keeps the place. */
  readonly keepsPlaces?: boolean;
  /** a place is held forever. */
  readonly leasesNeverRunOut?: boolean;
  /** a place that lost its lease is dropped, but the run stays complete. */
  readonly dropsSilently?: boolean;
  /** every run sees the places of every run. */
  readonly sharesPlaces?: boolean;
}

interface Place extends InFlightInvocation {
  readonly id: string;
  readonly runId: string;
  readonly expiresAt: number;
}

/** A small history store, with optional flaws the suite must catch. */
class FakeHistoryStore implements InvocationHistoryStore {
  readonly #runs = new Map<string, { observations: InvocationObservation[]; complete: boolean }>();
  #places: Place[] = [];
  #next = 0;
  #now = 0;

  constructor(private readonly flaws: Flaws) {}

  advance(milliseconds: number): void {
    this.#now += milliseconds;
  }

  async reserve(runId: string, call: InFlightInvocation, leaseMs: number): Promise<InvocationReservation> {
    if (!this.flaws.leasesNeverRunOut) {
      const live = this.#places.filter((place) => place.expiresAt > this.#now);
      if (live.length !== this.#places.length && !this.flaws.dropsSilently) {
        for (const place of this.#places) if (place.expiresAt <= this.#now) this.#runOf(place.runId).complete = false;
      }
      this.#places = live;
    }
    const run = this.#runOf(runId);
    const inFlight = this.#places
      .filter((place) => this.flaws.sharesPlaces || place.runId === runId)
      .map((place) => ({ tool: place.tool, target: place.target }));
    const history = new InvocationHistory(run.observations, run.complete, inFlight);
    if (this.flaws.racyReserve) await new Promise((resolve) => setTimeout(resolve, 1));
    this.#next += 1;
    const id = String(this.#next);
    this.#places.push({ id, runId, tool: call.tool, target: call.target, expiresAt: this.#now + leaseMs });
    return { id, history };
  }

  async settle(runId: string, reservationId: string, observation: InvocationObservation): Promise<void> {
    if (!this.flaws.keepsPlaces) this.#places = this.#places.filter((place) => place.id !== reservationId);
    await this.append(runId, observation);
  }

  #runOf(runId: string): { observations: InvocationObservation[]; complete: boolean } {
    let run = this.#runs.get(runId);
    if (run === undefined) {
      run = { observations: [], complete: false };
      this.#runs.set(runId, run);
    }
    return run;
  }

  startRun(runId: string): boolean {
    if (this.#runs.has(runId) && !this.flaws.resets) return false;
    this.#runs.set(runId, { observations: [], complete: true });
    return true;
  }

  load(runId: string): InvocationHistory | null {
    const run = this.#runs.get(runId);
    const inFlight = this.#places.filter((place) => place.runId === runId).map((place) => ({ tool: place.tool, target: place.target }));
    return run === undefined ? null : new InvocationHistory(run.observations, run.complete, inFlight);
  }

  async append(runId: string, observation: InvocationObservation): Promise<void> {
    const run = this.#runs.get(runId) ?? { observations: [], complete: this.flaws.trustsUnknownRuns === true };
    const kept = this.flaws.keepsExtras
      ? observation
      : { tool: observation.tool, outcome: observation.outcome, target: observation.target };
    const next = [...run.observations, kept];
    if (this.flaws.racy) await new Promise((resolve) => setTimeout(resolve, 1));
    const current = this.#runs.get(runId);
    this.#runs.set(runId, { observations: next, complete: current === undefined ? run.complete : current.complete && run.complete });
  }
}

/** Fake stores with `flaws`, on a fake clock the suite advances. */
function harness(flaws: Flaws): StoreContractHarness<InvocationHistoryStore> {
  const stores: FakeHistoryStore[] = [];
  return {
    create: () => {
      const store = new FakeHistoryStore(flaws);
      stores.push(store);
      return store;
    },
    advanceTime: (milliseconds) => {
      for (const store of stores) store.advance(milliseconds);
    },
  };
}

describe('invocationHistoryStoreContract', () => {
  it('passes a store that keeps the contract', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({})))).toEqual([]);
  });

  it('fails a store whose startRun resets a known run', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ resets: true })))).toEqual([
      'startRun opens a complete, empty run once and answers false for a known run',
      'startRun never resets a run that has observations',
      'append to a run the store does not know records it as incomplete, and startRun never makes it complete',
      'reserve in a run the store does not know records the run as incomplete and holds the place',
    ]);
  });

  it('fails a store that keeps what an observation carries beyond tool, outcome and target', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ keepsExtras: true })))).toEqual([
      'append keeps only the tool, outcome and target of an observation',
    ]);
  });

  it('fails a store that trusts a run it only saw through append', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ trustsUnknownRuns: true })))).toEqual([
      'append to a run the store does not know records it as incomplete, and startRun never makes it complete',
    ]);
  });

  it('fails a store whose overlapping appends lose observations', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ racy: true })))).toEqual([
      'append loses nothing when 30 appends to one run overlap',
      'exactly 3 of 20 parallel calls in one run pass a limit of 3 per run',
    ]);
  });
  it('fails a store whose parallel reservations miss each other', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ racyReserve: true })))).toEqual([
      'exactly 3 of 20 parallel calls in one run pass a limit of 3 per run',
    ]);
  });

  it('fails a store whose settle keeps the place', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ keepsPlaces: true })))).toEqual([
      'settle turns a place into its observation in one step, and releases exactly that place',
      'exactly 3 of 20 parallel calls in one run pass a limit of 3 per run',
      'a call that is refused or fails releases its place, so it no longer counts against a limit',
    ]);
  });

  it('fails a store whose places never lose their lease', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ leasesNeverRunOut: true })))).toEqual([
      'a place whose lease ran out is dropped and its run marked incomplete, and its late settle is still recorded',
    ]);
  });

  it('fails a store that drops a place whose lease ran out but keeps its run complete', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ dropsSilently: true })))).toEqual([
      'a place whose lease ran out is dropped and its run marked incomplete, and its late settle is still recorded',
    ]);
  });

  it("fails a store whose runs see each other's places", async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(harness({ sharesPlaces: true })))).toEqual([
      'places in one run are not seen by another run',
    ]);
  });
});
