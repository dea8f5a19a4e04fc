import type { IdempotencyBegin, IdempotencyClaim, IdempotencyStore } from '../contracts/idempotency-store.js';
import type { ToolResultJson } from '../result/tool-result.js';
import { buildCases, check, checkSame, type CaseDefinition } from './contract-checks.js';
import type { StoreContractCase, StoreContractSubject } from './store-contract-case.js';

type Definition = CaseDefinition<IdempotencyStore, void>;

const MINUTE = 60_000;
const RACERS = 20;

let sequence = 0;

/** A key unique to the case and the process. */
function newKey(label: string): string {
  sequence += 1;
  return `agent:7|${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}-${String(sequence)}`;
}

function claim(key: string, at: number, change: Partial<IdempotencyClaim> = {}): IdempotencyClaim {
  return {
    key,
    toolName: 'create_invoice',
    principal: 'agent:7',
    argumentsDigest: 'digest-a',
    owner: `owner-${String(at)}-${Math.random().toString(36).slice(2, 10)}`,
    at: new Date(at),
    leaseMs: 10 * MINUTE,
    retentionMs: 10 * MINUTE,
    ...change,
  };
}

const RESULT: ToolResultJson = Object.freeze({
  success: true,
  data: Object.freeze({ invoice: 42, lines: Object.freeze([Object.freeze({ item: 'maíz', qty: 3 })]), paid: false, note: null }),
  message: 'Created invoice 42',
  error: null,
  meta: Object.freeze({ tool: 'create_invoice', took_ms: 3, request_id: 'req-1', channel: 'mcp', principal: 'agent:7' }),
});

function checkStatus(answer: IdempotencyBegin, status: IdempotencyBegin['status'], what: string): void {
  checkSame(answer.status, status, what);
}

function definitions(): readonly Definition[] {
  return [
    {
      name: 'begin on a free key starts it, and get shows it in flight with its binding',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('start');
        const first = claim(key, now);
        checkStatus(await store.begin(first), 'started', 'begin on a free key');
        const record = await store.get(key);
        check(record !== null, 'get should return the started key');
        checkSame(
          {
            key: record.key,
            toolName: record.toolName,
            principal: record.principal,
            argumentsDigest: record.argumentsDigest,
            state: record.state,
            owner: record.owner,
            result: record.result,
          },
          {
            key,
            toolName: 'create_invoice',
            principal: 'agent:7',
            argumentsDigest: 'digest-a',
            state: 'in_flight',
            owner: first.owner,
            result: null,
          },
          'the in-flight record',
        );
        checkSame(record.startedAt, new Date(now), 'startedAt');
        checkSame(record.leaseExpiresAt, new Date(now + 10 * MINUTE), 'leaseExpiresAt');
        checkSame(record.forgetAt, new Date(now + 20 * MINUTE), 'forgetAt of an in-flight key');
      },
    },
    {
      name: 'a second call with the key while the first is in flight is told in_flight and changes nothing',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('in-flight');
        const first = claim(key, now);
        await store.begin(first);
        checkStatus(await store.begin(claim(key, now + 1_000)), 'in_flight', 'begin while the first call is in flight');
        checkSame((await store.get(key))?.owner, first.owner, 'the owner after a second begin');
      },
    },
    {
      name: 'complete keeps the result, and a later call with the same binding replays it exactly',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('replay');
        const first = claim(key, now);
        await store.begin(first);
        checkSame(await store.complete(key, first.owner, RESULT, new Date(now + 1_000), 10 * MINUTE), true, 'complete by the owner');
        const replay = await store.begin(claim(key, now + 2_000));
        check(replay.status === 'replay', 'begin after completion should replay', replay.status);
        checkSame(replay.result, RESULT, 'the replayed result');
        const record = await store.get(key);
        checkSame(record?.state, 'completed', 'the state after completion');
        checkSame(record?.forgetAt, new Date(now + 1_000 + 10 * MINUTE), 'forgetAt after completion');
      },
    },
    {
      name: 'only the owner completes, and only once',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('owner');
        const first = claim(key, now);
        await store.begin(first);
        checkSame(await store.complete(key, 'someone-else', RESULT, new Date(now + 1_000), MINUTE), false, 'complete by another owner');
        checkSame((await store.get(key))?.state, 'in_flight', 'the state after a refused complete');
        checkSame(await store.complete(key, first.owner, RESULT, new Date(now + 2_000), MINUTE), true, 'complete by the owner');
        const other: ToolResultJson = { ...RESULT, data: { invoice: 43 } };
        checkSame(await store.complete(key, first.owner, other, new Date(now + 3_000), MINUTE), false, 'a second complete');
        const replay = await store.begin(claim(key, now + 4_000));
        checkSame(replay.status === 'replay' ? replay.result : replay.status, RESULT, 'the result after a refused second complete');
        checkSame(await store.complete(newKey('never'), first.owner, RESULT, new Date(now), MINUTE), false, 'complete of an unknown key');
      },
    },
    {
      name: 'the key used for another tool, principal or arguments is a conflict, in flight and completed, and changes nothing',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('conflict');
        const first = claim(key, now);
        await store.begin(first);
        const attempts: readonly [Partial<IdempotencyClaim>, string][] = [
          [{ toolName: 'delete_invoice' }, 'tool_differs'],
          [{ principal: 'agent:8' }, 'principal_differs'],
          [{ principal: null }, 'principal_differs'],
          [{ argumentsDigest: 'digest-b' }, 'arguments_differ'],
        ];
        for (const [change, reason] of attempts) {
          const answer = await store.begin(claim(key, now + 1_000, change));
          checkSame(answer.status === 'conflict' ? answer.reason : answer.status, reason, `begin in flight with ${JSON.stringify(change)}`);
        }
        await store.complete(key, first.owner, RESULT, new Date(now + 2_000), MINUTE);
        for (const [change, reason] of attempts) {
          const answer = await store.begin(claim(key, now + 3_000, change));
          checkSame(
            answer.status === 'conflict' ? answer.reason : answer.status,
            reason,
            `begin after completion with ${JSON.stringify(change)}`,
          );
        }
        checkStatus(await store.begin(claim(key, now + 4_000)), 'replay', 'begin with the first binding after conflicts');
      },
    },
    {
      name: 'release by the owner frees the key for the next call; release by anyone else changes nothing',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('release');
        const first = claim(key, now);
        await store.begin(first);
        checkSame(await store.release(key, 'someone-else'), false, 'release by another owner');
        checkStatus(await store.begin(claim(key, now + 1_000)), 'in_flight', 'begin after a refused release');
        checkSame(await store.release(key, first.owner), true, 'release by the owner');
        const next = claim(key, now + 2_000, { argumentsDigest: 'digest-b' });
        checkStatus(await store.begin(next), 'started', 'begin after release, even with other arguments');
        checkSame((await store.get(key))?.owner, next.owner, 'the owner after the key was started again');
        await store.complete(key, next.owner, RESULT, new Date(now + 3_000), MINUTE);
        checkSame(await store.release(key, next.owner), false, 'release of a completed key');
        checkStatus(
          await store.begin(claim(key, now + 4_000, { argumentsDigest: 'digest-b' })),
          'replay',
          'begin after a refused release of a completed key',
        );
      },
    },
    {
      name: 'a call in flight past its lease is abandoned: later calls are refused, and its owner may still complete it',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('lease');
        const first = claim(key, now, { leaseMs: MINUTE });
        await store.begin(first);
        checkStatus(await store.begin(claim(key, now + MINUTE)), 'in_flight', 'begin at the lease end');
        checkStatus(await store.begin(claim(key, now + MINUTE + 1)), 'abandoned', 'begin one millisecond after the lease');
        checkSame(
          await store.complete(key, first.owner, RESULT, new Date(now + MINUTE + 2), MINUTE),
          true,
          'complete by the owner after its lease',
        );
        checkStatus(await store.begin(claim(key, now + MINUTE + 3)), 'replay', 'begin after a late complete');
      },
    },
    {
      name: 'a key is free again once forgotten, whatever it held',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('forget');
        const first = claim(key, now, { leaseMs: MINUTE, retentionMs: MINUTE });
        await store.begin(first);
        await store.complete(key, first.owner, RESULT, new Date(now + 1_000), MINUTE);
        checkStatus(
          await store.begin(claim(key, now + MINUTE + 999, { argumentsDigest: 'digest-b' })),
          'conflict',
          'begin just before forgetAt',
        );
        const again = claim(key, now + MINUTE + 1_000, { argumentsDigest: 'digest-b' });
        checkStatus(await store.begin(again), 'started', 'begin at forgetAt');
        checkSame((await store.get(key))?.owner, again.owner, 'the owner of the key started again');
      },
    },
    {
      name: `${String(RACERS)} calls racing with one key start it exactly once; the others are told in_flight`,
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const key = newKey('race');
        const answers = await Promise.all(Array.from({ length: RACERS }, async () => store.begin(claim(key, now))));
        checkSame(
          answers.filter((answer) => answer.status === 'started').length,
          1,
          `the number of starts out of ${String(RACERS)} racing calls`,
        );
        checkSame(answers.filter((answer) => answer.status === 'in_flight').length, RACERS - 1, 'the number told in_flight');
      },
    },
    {
      name: 'keys are independent, and get answers null for a key never used',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const first = newKey('one');
        const second = newKey('two');
        await store.begin(claim(first, now));
        checkSame(await store.get(second), null, 'get of an unused key');
        checkStatus(await store.begin(claim(second, now, { argumentsDigest: 'digest-b' })), 'started', 'begin on another key');
      },
    },
  ];
}

/**
 * The contract test suite of {@link IdempotencyStore}: a key started once (also when calls race),
 * told in flight while its first call runs, replayed exactly once completed, refused for another
 * tool, principal or arguments, freed by its owner's release, abandoned past its lease and free
 * again once forgotten. Returns the cases for any test runner to run; each builds its own store
 * through `subject`.
 *
 * Times are data here (a claim's `at`, a completion's `at`), all near the current time, so the
 * suite never waits.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { idempotencyStoreContract } from '@milpa/core/testing';
 *
 * describe('MyIdempotencyStore', () => {
 *   for (const contractCase of idempotencyStoreContract(() => new MyIdempotencyStore())) it(contractCase.name, contractCase.run);
 * });
 */
export function idempotencyStoreContract(subject: StoreContractSubject<IdempotencyStore>): readonly StoreContractCase[] {
  return buildCases('idempotencyStoreContract', subject, definitions());
}
