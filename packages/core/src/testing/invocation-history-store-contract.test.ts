import { describe, expect, it } from 'vitest';
import type { InvocationHistoryStore } from '../contracts/invocation-history-store.js';
import { InvocationHistory, type InvocationObservation } from '../invocation/invocation-history.js';
import { failingCaseNames } from './contract-failures.test-helper.js';
import { invocationHistoryStoreContract } from './invocation-history-store-contract.js';

interface Flaws {
  /** startRun empties a known run. */
  readonly resets?: boolean;
  /** the observation object is kept as given, extra fields included. */
  readonly keepsExtras?: boolean;
  /** a run first seen through append counts as complete. */
  readonly trustsUnknownRuns?: boolean;
  /** append reads, yields, then writes back: overlapping appends lose observations. */
  readonly racy?: boolean;
}

/** A small history store, with optional flaws the suite must catch. */
class FakeHistoryStore implements InvocationHistoryStore {
  readonly #runs = new Map<string, { observations: InvocationObservation[]; complete: boolean }>();

  constructor(private readonly flaws: Flaws) {}

  startRun(runId: string): boolean {
    if (this.#runs.has(runId) && !this.flaws.resets) return false;
    this.#runs.set(runId, { observations: [], complete: true });
    return true;
  }

  load(runId: string): InvocationHistory | null {
    const run = this.#runs.get(runId);
    return run === undefined ? null : new InvocationHistory(run.observations, run.complete);
  }

  async append(runId: string, observation: InvocationObservation): Promise<void> {
    const run = this.#runs.get(runId) ?? { observations: [], complete: this.flaws.trustsUnknownRuns === true };
    const kept = this.flaws.keepsExtras
      ? observation
      : { tool: observation.tool, outcome: observation.outcome, target: observation.target };
    const next = [...run.observations, kept];
    if (this.flaws.racy) await new Promise((resolve) => setTimeout(resolve, 1));
    this.#runs.set(runId, { observations: next, complete: run.complete });
  }
}

describe('invocationHistoryStoreContract', () => {
  it('passes a store that keeps the contract', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(() => new FakeHistoryStore({})))).toEqual([]);
  });

  it('fails a store whose startRun resets a known run', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(() => new FakeHistoryStore({ resets: true })))).toEqual([
      'startRun opens a complete, empty run once and answers false for a known run',
      'startRun never resets a run that has observations',
      'append to a run the store does not know records it as incomplete, and startRun never makes it complete',
    ]);
  });

  it('fails a store that keeps what an observation carries beyond tool, outcome and target', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(() => new FakeHistoryStore({ keepsExtras: true })))).toEqual([
      'append keeps only the tool, outcome and target of an observation',
    ]);
  });

  it('fails a store that trusts a run it only saw through append', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(() => new FakeHistoryStore({ trustsUnknownRuns: true })))).toEqual([
      'append to a run the store does not know records it as incomplete, and startRun never makes it complete',
    ]);
  });

  it('fails a store whose overlapping appends lose observations', async () => {
    expect(await failingCaseNames(invocationHistoryStoreContract(() => new FakeHistoryStore({ racy: true })))).toEqual([
      'append loses nothing when 30 appends to one run overlap',
    ]);
  });
});
