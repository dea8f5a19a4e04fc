import type { InvocationHistoryStore } from '../contracts/invocation-history-store.js';
import type { InFlightInvocation, InvocationHistory, InvocationObservation } from '../invocation/invocation-history.js';
import { buildCases, check, checkSame, type CaseDefinition } from './contract-checks.js';
import type { StoreContractCase, StoreContractSubject } from './store-contract-case.js';

type Definition = CaseDefinition<InvocationHistoryStore, void>;

const CONCURRENT_APPENDS = 30;
/** Parallel calls of one run against a limit of {@link RUN_LIMIT}. */
const PARALLEL_CALLS = 20;
const RUN_LIMIT = 3;
/** A lease long enough that no case outlives it by accident. */
const LONG_LEASE_MS = 600_000;
/** The lease of the expiry case: the suite lets a little more than this pass. */
const SHORT_LEASE_MS = 1_000;

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

const DELETING_42: InFlightInvocation = Object.freeze({ tool: 'delete_note', target: Object.freeze({ kind: 'note', id: '42' }) });
const DELETING_7: InFlightInvocation = Object.freeze({ tool: 'delete_note', target: Object.freeze({ kind: 'note', id: '7' }) });
const SEARCHING: InFlightInvocation = Object.freeze({ tool: 'search_notes', target: null });

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

function checkInFlight(history: InvocationHistory | null, inFlight: readonly InFlightInvocation[], what: string): void {
  check(history !== null, `${what}: the history should be there`);
  checkSame(history.inFlight, inFlight, `${what}: the calls in flight`);
}

/**
 * One call of a run as the runtime makes it: take a place, let the "at most RUN_LIMIT deletions"
 * rule judge the history up to it, then settle as executed or refused. Answers whether it executed.
 */
async function limitedDeletion(store: InvocationHistoryStore, runId: string, index: number): Promise<boolean> {
  const call: InFlightInvocation = { tool: 'delete_note', target: { kind: 'note', id: String(index) } };
  const reservation = await store.reserve(runId, call, LONG_LEASE_MS);
  const allowed = reservation.history.count({ tool: 'delete_note', outcome: 'executed' }) < RUN_LIMIT;
  // Let the other calls run between the rule and the end of this call, as a handler would.
  await new Promise((resolve) => setTimeout(resolve, 1));
  await store.settle(runId, reservation.id, { ...call, outcome: allowed ? 'executed' : 'invocation_denied' });
  return allowed;
}

function reservationDefinitions(): Definition[] {
  return [
    {
      name:
        'reserve answers the history up to the place it takes: the calls ' +
        'that ended and the earlier calls in flight, not the call itself',
      settings: undefined,
      async body(store) {
        const runId = newRunId('reserve');
        await store.startRun(runId);
        await store.append(runId, SEARCHED);
        const first = await store.reserve(runId, DELETING_42, LONG_LEASE_MS);
        checkHistory(first.history, [SEARCHED], true, 'the history of the first place');
        checkInFlight(first.history, [], 'the history of the first place');
        const withExtras = { ...DELETING_7, arguments: { id: 7, password: 'hunter2' } } as InFlightInvocation;
        const second = await store.reserve(runId, withExtras, LONG_LEASE_MS);
        checkInFlight(second.history, [DELETING_42], 'the history of the second place');
        check(typeof first.id === 'string' && typeof second.id === 'string' && first.id !== second.id, 'two places should have two ids', [
          first.id,
          second.id,
        ]);
        checkInFlight(await store.load(runId), [DELETING_42, DELETING_7], 'the run loaded with two places taken');
        checkSame(first.history.inFlight, [], 'the first history after the second place was taken');
      },
    },
    {
      name: 'settle turns a place into its observation in one step, and releases exactly that place',
      settings: undefined,
      async body(store) {
        const runId = newRunId('settle');
        await store.startRun(runId);
        const first = await store.reserve(runId, DELETING_42, LONG_LEASE_MS);
        const second = await store.reserve(runId, DELETING_7, LONG_LEASE_MS);
        await store.settle(runId, second.id, DENIED);
        const afterSecond = await store.load(runId);
        checkHistory(afterSecond, [DENIED], true, 'the run after the second call was refused');
        checkInFlight(afterSecond, [DELETING_42], 'the run after the second call was refused');
        await store.settle(runId, first.id, DELETED);
        const third = await store.reserve(runId, SEARCHING, LONG_LEASE_MS);
        checkHistory(third.history, [DENIED, DELETED], true, 'the history of a place taken after both calls ended');
        checkInFlight(third.history, [], 'the history of a place taken after both calls ended');
      },
    },
    {
      name:
        `exactly ${String(RUN_LIMIT)} of ${String(PARALLEL_CALLS)} parallel calls in one run pass a limit ` +
        `of ${String(RUN_LIMIT)} per run`,
      settings: undefined,
      async body(store) {
        const runId = newRunId('limit');
        await store.startRun(runId);
        const executed = await Promise.all(
          Array.from({ length: PARALLEL_CALLS }, async (_, index) => limitedDeletion(store, runId, index)),
        );
        checkSame(executed.filter(Boolean).length, RUN_LIMIT, 'the calls that passed the limit');
        const history = await store.load(runId);
        check(history !== null, 'load should find the run');
        checkSame(history.complete, true, 'complete after the parallel calls');
        checkSame(history.length, PARALLEL_CALLS, 'the observations after the parallel calls');
        checkSame(history.count({ outcome: 'executed' }), RUN_LIMIT, 'the executed calls recorded');
        checkSame(history.inFlight, [], 'the calls in flight once all ended');
      },
    },
    {
      name: 'a call that is refused or fails releases its place, so it no longer counts against a limit',
      settings: undefined,
      async body(store) {
        const runId = newRunId('release');
        await store.startRun(runId);
        const places = [];
        for (let index = 0; index < RUN_LIMIT; index++) places.push(await store.reserve(runId, DELETING_42, LONG_LEASE_MS));
        const blocked = await store.reserve(runId, DELETING_7, LONG_LEASE_MS);
        checkSame(blocked.history.count({ tool: 'delete_note', outcome: 'executed' }), RUN_LIMIT, 'deletions counted behind three places');
        await store.settle(runId, blocked.id, DENIED);
        await store.settle(runId, places[0]?.id ?? '', { ...DELETING_42, outcome: 'failed' });
        await store.settle(runId, places[1]?.id ?? '', { ...DELETING_42, outcome: 'invocation_denied' });
        const next = await store.reserve(runId, DELETING_7, LONG_LEASE_MS);
        checkSame(
          next.history.count({ tool: 'delete_note', outcome: 'executed' }),
          1,
          'deletions counted once two calls failed or were refused',
        );
        checkInFlight(next.history, [DELETING_42], 'the history after two calls failed or were refused');
      },
    },
    {
      name: 'a place whose lease ran out is dropped and its run marked incomplete, and its late settle is still recorded',
      settings: undefined,
      async body(store, { advanceTime }) {
        const runId = newRunId('lease');
        await store.startRun(runId);
        const stale = await store.reserve(runId, DELETING_42, SHORT_LEASE_MS);
        await advanceTime(SHORT_LEASE_MS + 200);
        const next = await store.reserve(runId, DELETING_7, LONG_LEASE_MS);
        checkInFlight(next.history, [], 'the history of a place taken after the first lease ran out');
        checkSame(next.history.complete, false, 'complete after a lease ran out');
        await store.settle(runId, stale.id, DELETED);
        const history = await store.load(runId);
        checkHistory(history, [DELETED], false, 'the run after the late settle');
        checkInFlight(history, [DELETING_7], 'the run after the late settle');
      },
    },
    {
      name: 'places in one run are not seen by another run',
      settings: undefined,
      async body(store) {
        const first = newRunId('first-places');
        const second = newRunId('second-places');
        await store.startRun(first);
        await store.startRun(second);
        for (let index = 0; index < RUN_LIMIT; index++) await store.reserve(first, DELETING_42, LONG_LEASE_MS);
        const other = await store.reserve(second, DELETING_42, LONG_LEASE_MS);
        checkHistory(other.history, [], true, 'the other run');
        checkInFlight(other.history, [], 'the other run');
      },
    },
    {
      name: 'reserve in a run the store does not know records the run as incomplete and holds the place',
      settings: undefined,
      async body(store) {
        const runId = newRunId('unknown-reserve');
        const first = await store.reserve(runId, DELETING_42, LONG_LEASE_MS);
        checkSame(first.history.complete, false, 'complete for a place in an unknown run');
        const second = await store.reserve(runId, DELETING_7, LONG_LEASE_MS);
        checkInFlight(second.history, [DELETING_42], 'the second place in the unknown run');
        checkSame(await store.startRun(runId), false, 'startRun of a run first seen through reserve');
        await store.settle(runId, first.id, DELETED);
        checkHistory(await store.load(runId), [DELETED], false, 'the unknown run after a settle');
      },
    },
  ];
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
    ...reservationDefinitions(),
  ];
}

/**
 * The contract test suite of {@link InvocationHistoryStore}: unknown runs load as null, a run opens
 * complete and empty once and is never reset, observations keep their order and only their tool,
 * outcome and target, a run first seen through `append` stays incomplete, and overlapping appends
 * lose nothing. Reservations: a call's place comes with the history up to it (the calls in flight
 * ahead of it included), exactly three of twenty parallel calls pass a limit of three per run,
 * `settle` releases a place and records it in one step, a place whose lease ran out is dropped and
 * marks its run incomplete, and runs do not see each other's places. The lease case lets a little
 * more than one second pass (through the harness's `advanceTime` when given). Returns the cases for any test runner to run; each builds its
 * own store through `subject`.
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
