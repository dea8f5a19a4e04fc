import type { InvocationHistoryStore } from '../contracts/invocation-history-store.js';
import type { InvocationHistory, InvocationObservation } from '../invocation/invocation-history.js';
import { buildCases, check, checkSame, type CaseDefinition } from './contract-checks.js';
import type { StoreContractCase, StoreContractSubject } from './store-contract-case.js';

type Definition = CaseDefinition<InvocationHistoryStore, void>;

const CONCURRENT_APPENDS = 30;

const SEARCHED: InvocationObservation = Object.freeze({ tool: 'search_notes', outcome: 'executed', target: null });
const DELETED: InvocationObservation = Object.freeze({
  tool: 'delete_note',
  outcome: 'executed',
  target: Object.freeze({ kind: 'note', id: '42' }),
});
const DENIED: InvocationObservation = Object.freeze({
  tool: 'delete_note',
  outcome: 'invocation_denied',
  target: Object.freeze({ kind: 'note', id: '7' }),
});

/** A unique run id per case run, so a store shared between cases cannot mix them up. */
function newRunId(label: string): string {
  return `run-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function checkHistory(
  history: InvocationHistory | null,
  observations: readonly InvocationObservation[],
  complete: boolean,
  what: string,
): void {
  check(history !== null, `${what}: load should find the run`);
  checkSame(history.complete, complete, `${what}: complete`);
  checkSame(history.observations, observations, `${what}: the observations`);
}

function definitions(): Definition[] {
  return [
    {
      name: 'load answers null for a run the store does not know',
      settings: undefined,
      async body(store) {
        checkSame(await store.load(newRunId('unknown')), null, 'load of an unknown run');
      },
    },
    {
      name: 'startRun opens a complete, empty run once and answers false for a known run',
      settings: undefined,
      async body(store) {
        const runId = newRunId('start');
        checkSame(await store.startRun(runId), true, 'startRun of a new run');
        checkHistory(await store.load(runId), [], true, 'a freshly opened run');
        checkSame(await store.startRun(runId), false, 'startRun of a known run');
      },
    },
    {
      name: 'append records observations in the order the calls ended, and the run stays complete',
      settings: undefined,
      async body(store) {
        const runId = newRunId('order');
        await store.startRun(runId);
        await store.append(runId, SEARCHED);
        await store.append(runId, DELETED);
        await store.append(runId, DENIED);
        checkHistory(await store.load(runId), [SEARCHED, DELETED, DENIED], true, 'a run with three calls');
      },
    },
    {
      name: "load answers an InvocationHistory whose queries count the run's calls",
      settings: undefined,
      async body(store) {
        const runId = newRunId('query');
        await store.startRun(runId);
        await store.append(runId, DELETED);
        await store.append(runId, DENIED);
        const history = await store.load(runId);
        check(history !== null && typeof history.count === 'function', 'load should answer an InvocationHistory', history);
        checkSame(history.count({ tool: 'delete_note' }), 2, 'count of delete_note calls');
        checkSame(history.count({ tool: 'delete_note', outcome: 'executed', targetId: '42' }), 1, 'count of executed deletions of note 42');
      },
    },
    {
      name: 'startRun never resets a run that has observations',
      settings: undefined,
      async body(store) {
        const runId = newRunId('no-reset');
        await store.startRun(runId);
        await store.append(runId, DELETED);
        checkSame(await store.startRun(runId), false, 'startRun of a run with observations');
        checkHistory(await store.load(runId), [DELETED], true, 'the run after a second startRun');
      },
    },
    {
      name: 'append to a run the store does not know records it as incomplete, and startRun never makes it complete',
      settings: undefined,
      async body(store) {
        const runId = newRunId('incomplete');
        await store.append(runId, DELETED);
        checkHistory(await store.load(runId), [DELETED], false, 'a run first seen through append');
        checkSame(await store.startRun(runId), false, 'startRun of a run first seen through append');
        await store.append(runId, SEARCHED);
        checkHistory(await store.load(runId), [DELETED, SEARCHED], false, 'the incomplete run after another append');
      },
    },
    {
      name: 'append keeps only the tool, outcome and target of an observation',
      settings: undefined,
      async body(store) {
        const runId = newRunId('fields');
        await store.startRun(runId);
        const withExtras = { ...DELETED, arguments: { id: 42, password: 'hunter2' }, result: 'deleted' } as InvocationObservation;
        await store.append(runId, withExtras);
        checkHistory(await store.load(runId), [DELETED], true, 'a run given an observation with extra fields');
      },
    },
    {
      name: 'a loaded history is a snapshot that later appends do not change',
      settings: undefined,
      async body(store) {
        const runId = newRunId('snapshot');
        await store.startRun(runId);
        await store.append(runId, SEARCHED);
        const before = await store.load(runId);
        await store.append(runId, DELETED);
        checkHistory(before, [SEARCHED], true, 'the history loaded before the second append');
      },
    },
    {
      name: 'runs are independent',
      settings: undefined,
      async body(store) {
        const first = newRunId('first');
        const second = newRunId('second');
        await store.startRun(first);
        await store.startRun(second);
        await store.append(first, DELETED);
        await store.append(second, SEARCHED);
        checkHistory(await store.load(first), [DELETED], true, 'the first run');
        checkHistory(await store.load(second), [SEARCHED], true, 'the second run');
      },
    },
    {
      name: `append loses nothing when ${String(CONCURRENT_APPENDS)} appends to one run overlap`,
      settings: undefined,
      async body(store) {
        const runId = newRunId('concurrent');
        await store.startRun(runId);
        await Promise.all(
          Array.from({ length: CONCURRENT_APPENDS }, async (_, index) =>
            store.append(runId, { tool: 'read_note', outcome: 'executed', target: { kind: 'note', id: String(index) } }),
          ),
        );
        const history = await store.load(runId);
        check(history !== null, 'load should find the run');
        checkSame(history.complete, true, 'complete after overlapping appends');
        const ids = history.observations
          .map((observation) => observation.target?.id ?? '')
          .sort((left, right) => Number(left) - Number(right));
        checkSame(
          ids,
          Array.from({ length: CONCURRENT_APPENDS }, (_, index) => String(index)),
          'the targets recorded by overlapping appends',
        );
      },
    },
  ];
}

/**
 * The contract test suite of {@link InvocationHistoryStore}: unknown runs load as null, a run opens
 * complete and empty once and is never reset, observations keep their order and only their tool,
 * outcome and target, a run first seen through `append` stays incomplete, and overlapping appends
 * lose nothing. Returns the cases for any test runner to run; each builds its own store through
 * `subject`.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { invocationHistoryStoreContract } from '@milpa/core/testing';
 *
 * describe('MyHistoryStore', () => {
 *   for (const contractCase of invocationHistoryStoreContract(() => new MyHistoryStore())) it(contractCase.name, contractCase.run);
 * });
 */
export function invocationHistoryStoreContract(subject: StoreContractSubject<InvocationHistoryStore>): readonly StoreContractCase[] {
  return buildCases('invocationHistoryStoreContract', subject, definitions());
}
