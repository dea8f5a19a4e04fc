import type { VerificationStore } from '../contracts/verification-store.js';
import { buildCases, check, checkSame, type CaseDefinition } from './contract-checks.js';
import type { StoreContractCase, StoreContractSubject } from './store-contract-case.js';
import {
  MINUTE,
  RACERS,
  approvalFields,
  checkPending,
  checkRefused,
  grant,
  newId,
  pendingRecord,
  reject,
} from './verification-contract-fixtures.js';

type Definition = CaseDefinition<VerificationStore, void>;

function definitions(): Definition[] {
  return [
    {
      name: 'open stores a record that get returns field for field',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('open');
        const record = pendingRecord(id, now, { policy: 'dual', payload: { amount: 120, lines: [{ sku: 'A-1', qty: 2 }], note: null } });
        checkSame(await store.open(record), true, 'open of a free id');
        const stored = await store.get(id);
        check(stored !== null, 'get should find the opened record');
        checkSame(stored.id, id, 'the stored id');
        checkSame(stored.request.id, id, 'the stored request id');
        checkSame(stored.request.subject, `gate:${id}`, 'the stored subject');
        checkSame(stored.request.policy, 'dual', 'the stored policy');
        checkSame(stored.request.payload, { amount: 120, lines: [{ sku: 'A-1', qty: 2 }], note: null }, 'the stored payload');
        checkSame(stored.request.requestedBy, 'user:requester', 'the stored requester');
        checkSame(stored.createdAt, record.createdAt, 'the stored createdAt');
        checkSame(stored.expiresAt, record.expiresAt, 'the stored expiresAt');
        checkSame(stored.requiredApprovals, 2, 'the stored requiredApprovals');
        checkPending(stored, [], 'a freshly opened record');
      },
    },
    {
      name: 'open keeps a record without a deadline and without a requester',
      settings: undefined,
      async body(store) {
        const id = newId('open-ended');
        checkSame(await store.open(pendingRecord(id, Date.now(), { expiresInMs: null, requestedBy: null })), true, 'open of a free id');
        const stored = await store.get(id);
        check(stored !== null, 'get should find the opened record');
        checkSame(stored.expiresAt, null, 'the stored expiresAt of a request without a deadline');
        checkSame(stored.request.requestedBy, null, 'the stored requester of an anonymous request');
      },
    },
    {
      name: 'open refuses an id that is taken and keeps the first record',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('taken');
        await store.open(pendingRecord(id, now, { payload: { first: true } }));
        checkSame(await store.open(pendingRecord(id, now, { payload: { first: false }, policy: 'dual' })), false, 'open of a taken id');
        const stored = await store.get(id);
        checkSame(stored?.request.payload, { first: true }, 'the payload kept under the taken id');
        checkSame(stored?.request.policy, 'single', 'the policy kept under the taken id');
      },
    },
    {
      name: 'get answers null and decide refuses as not_found for an unknown id',
      settings: undefined,
      async body(store) {
        const id = newId('unknown');
        checkSame(await store.get(id), null, 'get of an unknown id');
        const outcome = await store.decide(id, grant('user:approver', Date.now()));
        checkRefused(outcome, 'not_found', 'a decision on an unknown id');
        checkSame(outcome.record, null, 'the record of a not_found refusal');
      },
    },
    {
      name: "a grant resolves a single request with the decision's verdict, and the verdict is stored",
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('single');
        await store.open(pendingRecord(id, now));
        const outcome = await store.decide(id, grant('user:approver', now + 1_000, { reason: 'looks right' }));
        checkSame(outcome.status, 'resolved', 'the outcome of the only grant a single request needs');
        const stored = await store.get(id);
        check(stored?.result != null, 'the stored record should carry a verdict');
        checkSame(stored.result.status, 'passed', 'the stored verdict');
        checkSame(stored.result.principal, 'user:approver', 'the principal of the stored verdict');
        checkSame(stored.result.verifier, 'human', 'the verifier of the stored verdict');
        checkSame(stored.result.metadata, { channel: 'web' }, 'the metadata of the stored verdict');
        check(
          typeof stored.result.isSatisfied === 'function' && stored.result.isSatisfied(),
          'the stored verdict should be a VerificationResult that is satisfied',
        );
        checkSame(stored.resolvedAt, new Date(now + 1_000), 'the stored resolvedAt');
        checkSame(
          stored.approvals.map(approvalFields),
          [{ principal: 'user:approver', at: new Date(now + 1_000), reason: 'looks right' }],
          'the stored approvals',
        );
      },
    },
    {
      name: 'a request is decided once: every later decision is refused as already_resolved and changes nothing',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('once');
        await store.open(pendingRecord(id, now));
        await store.decide(id, grant('user:approver', now + 1_000));
        checkRefused(await store.decide(id, grant('user:other', now + 2_000)), 'already_resolved', 'a grant after the resolution');
        checkRefused(
          await store.decide(id, reject('user:other', now + 2_000, 'too late')),
          'already_resolved',
          'a reject after the resolution',
        );
        const stored = await store.get(id);
        checkSame(stored?.result?.status, 'passed', 'the verdict after refused decisions');
        checkSame(
          stored?.approvals.map((approval) => approval.principal),
          ['user:approver'],
          'the approvals after refused decisions',
        );
      },
    },
    {
      name: `a single request is resolved exactly once when ${String(RACERS)} approvers grant it at the same time`,
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('race');
        await store.open(pendingRecord(id, now));
        const outcomes = await Promise.all(
          Array.from({ length: RACERS }, async (_, index) => store.decide(id, grant(`user:approver-${String(index)}`, now + 1_000))),
        );
        checkSame(
          outcomes.filter((outcome) => outcome.status === 'resolved').length,
          1,
          `the number of resolving grants out of ${String(RACERS)}`,
        );
        for (const outcome of outcomes.filter((candidate) => candidate.status !== 'resolved'))
          checkRefused(outcome, 'already_resolved', 'a losing grant');
        checkSame((await store.get(id))?.approvals.length, 1, 'the approvals recorded on the resolved request');
      },
    },
    {
      name: 'a dual request needs two distinct approvers: the first grant is recorded, a repeat refused, the second resolves',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('dual');
        await store.open(pendingRecord(id, now, { policy: 'dual' }));
        const first = await store.decide(id, grant('user:ana', now + 1_000));
        checkSame(first.status, 'recorded', 'the outcome of the first grant of a dual request');
        checkPending(first.record, ['user:ana'], 'the record after the first grant');
        checkPending(await store.get(id), ['user:ana'], 'the stored record after the first grant');
        checkRefused(await store.decide(id, grant('user:ana', now + 2_000)), 'duplicate_approval', 'a second grant by the same approver');
        const second = await store.decide(id, grant('user:ben', now + 3_000));
        checkSame(second.status, 'resolved', "the outcome of a second approver's grant");
        const stored = await store.get(id);
        checkSame(
          stored?.approvals.map((approval) => approval.principal),
          ['user:ana', 'user:ben'],
          'the approvers, oldest first',
        );
        checkSame(stored?.result?.status, 'passed', 'the verdict of the dual request');
        checkSame(stored?.resolvedAt, new Date(now + 3_000), 'the resolvedAt of the dual request');
      },
    },
    {
      name: `one approver granting a dual request ${String(RACERS)} times at once is recorded once and leaves it pending`,
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('dual-race');
        await store.open(pendingRecord(id, now, { policy: 'dual' }));
        const outcomes = await Promise.all(Array.from({ length: RACERS }, async () => store.decide(id, grant('user:ana', now + 1_000))));
        checkSame(
          outcomes.filter((outcome) => outcome.status === 'recorded').length,
          1,
          `the number of recorded grants out of ${String(RACERS)}`,
        );
        for (const outcome of outcomes.filter((candidate) => candidate.status !== 'recorded'))
          checkRefused(outcome, 'duplicate_approval', 'a repeated grant');
        checkPending(await store.get(id), ['user:ana'], "the dual request after one approver's repeated grants");
      },
    },
    {
      name: 'the requester cannot grant its own request but may reject it',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('self');
        await store.open(pendingRecord(id, now, { requestedBy: 'user:requester' }));
        checkRefused(await store.decide(id, grant('user:requester', now + 1_000)), 'self_approval', 'a grant by the requester');
        checkPending(await store.get(id), [], 'the request after a refused self-approval');
        const withdrawn = await store.decide(id, reject('user:requester', now + 2_000, 'withdrawn'));
        checkSame(withdrawn.status, 'resolved', "the outcome of the requester's reject");
        const stored = await store.get(id);
        checkSame(stored?.result?.status, 'failed', "the verdict after the requester's reject");
        checkSame(stored?.result?.reason, 'withdrawn', 'the reason of the withdrawn request');
      },
    },
    {
      name: 'a reject resolves the request as failed even when earlier grants were recorded',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('reject');
        await store.open(pendingRecord(id, now, { policy: 'dual' }));
        await store.decide(id, grant('user:ana', now + 1_000));
        const outcome = await store.decide(id, reject('user:ben', now + 2_000, 'wrong amount'));
        checkSame(outcome.status, 'resolved', 'the outcome of a reject');
        const stored = await store.get(id);
        checkSame(stored?.result?.status, 'failed', 'the verdict after a reject');
        checkSame(stored?.result?.missing, ['approval'], 'what the failed verdict lists as missing');
        checkSame(
          stored?.approvals.map((approval) => approval.principal),
          ['user:ana'],
          'the grants kept after a reject',
        );
        checkRefused(await store.decide(id, grant('user:carl', now + 3_000)), 'already_resolved', 'a grant after a reject');
      },
    },
    {
      name: 'a decision after the deadline is refused as expired and the request stays pending; one at the deadline counts',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const late = newId('late');
        await store.open(pendingRecord(late, now, { expiresInMs: MINUTE }));
        checkRefused(
          await store.decide(late, grant('user:approver', now + MINUTE + 1)),
          'expired',
          'a grant one millisecond after the deadline',
        );
        checkRefused(await store.decide(late, reject('user:approver', now + 2 * MINUTE, 'late')), 'expired', 'a reject after the deadline');
        checkPending(await store.get(late), [], 'the request after late decisions');
        const onTime = newId('on-time');
        await store.open(pendingRecord(onTime, now, { expiresInMs: MINUTE }));
        checkSame((await store.decide(onTime, grant('user:approver', now + MINUTE))).status, 'resolved', 'a grant at the deadline');
      },
    },
    {
      name: 'a decision naming another subject is refused as subject_mismatch; one naming the stored subject counts',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('subject');
        await store.open(pendingRecord(id, now));
        checkRefused(
          await store.decide(id, grant('user:approver', now + 1_000, { subject: 'gate:something-else' })),
          'subject_mismatch',
          'a grant for another subject',
        );
        checkPending(await store.get(id), [], 'the request after a subject mismatch');
        checkSame(
          (await store.decide(id, grant('user:approver', now + 2_000, { subject: `gate:${id}` }))).status,
          'resolved',
          'a grant naming the stored subject',
        );
      },
    },
    {
      name: 'a quorum request resolves when its required approvals are in, keeping every approval in order',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('quorum');
        await store.open(pendingRecord(id, now, { policy: 'quorum', requiredApprovals: 3 }));
        checkSame(
          (await store.decide(id, grant('user:ana', now + 1_000, { reason: 'one' }))).status,
          'recorded',
          'the first of three grants',
        );
        checkSame((await store.decide(id, grant('user:ben', now + 2_000))).status, 'recorded', 'the second of three grants');
        checkSame(
          (await store.decide(id, grant('user:carl', now + 3_000, { reason: 'three' }))).status,
          'resolved',
          'the third of three grants',
        );
        checkSame(
          (await store.get(id))?.approvals.map(approvalFields),
          [
            { principal: 'user:ana', at: new Date(now + 1_000), reason: 'one' },
            { principal: 'user:ben', at: new Date(now + 2_000), reason: null },
            { principal: 'user:carl', at: new Date(now + 3_000), reason: 'three' },
          ],
          'the approvals of the quorum request',
        );
      },
    },
    {
      name: 'a grant that changes arguments is stored with its changes, and a later grant without changes approves them',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('changes');
        await store.open(pendingRecord(id, now, { policy: 'dual' }));
        const first = await store.decide(id, grant('user:ana', now + 1_000, { changes: { amount: 90, note: { text: 'cut' } } }));
        checkSame(first.status, 'recorded', 'the outcome of a first grant with changes');
        checkSame(
          (await store.get(id))?.approvals.map((approval) => approval.changes),
          [{ amount: 90, note: { text: 'cut' } }],
          'the stored changes of the first grant',
        );
        const second = await store.decide(id, grant('user:ben', now + 2_000));
        checkSame(second.status, 'resolved', "a second approver's grant without changes");
        checkSame(
          (await store.get(id))?.approvals.map((approval) => approval.changes ?? null),
          [
            { amount: 90, note: { text: 'cut' } },
            { amount: 90, note: { text: 'cut' } },
          ],
          'the changes both grants approved',
        );
      },
    },
    {
      name: 'a grant with other changes starts the approvals over, so earlier approvers must approve again',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const id = newId('amend');
        await store.open(pendingRecord(id, now, { policy: 'dual' }));
        await store.decide(id, grant('user:ana', now + 1_000));
        const amended = await store.decide(id, grant('user:ben', now + 2_000, { changes: { amount: 50 } }));
        checkSame(amended.status, 'recorded', "a second approver's grant that changes the arguments");
        checkPending(await store.get(id), ['user:ben'], 'the approvals after the change');
        checkRefused(
          await store.decide(id, grant('user:ben', now + 3_000, { changes: { amount: 50 } })),
          'duplicate_approval',
          'the same approver granting the same changes again',
        );
        const again = await store.decide(id, grant('user:ana', now + 4_000));
        checkSame(again.status, 'resolved', 'the first approver approving the changed arguments');
        checkSame((await store.get(id))?.approvals.at(-1)?.changes ?? null, { amount: 50 }, 'the changes the final grant approved');
      },
    },
    {
      name: 'requests are independent: deciding one leaves another pending',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const first = newId('first');
        const second = newId('second');
        await store.open(pendingRecord(first, now));
        await store.open(pendingRecord(second, now));
        await store.decide(first, grant('user:approver', now + 1_000));
        checkPending(await store.get(second), [], 'the other request');
      },
    },
  ];
}

/**
 * The contract test suite of {@link VerificationStore}: records stored as opened, ids taken once, a
 * request decided once (also when approvers race), two distinct approvers for `dual`, no
 * self-approval, rejects, deadlines, subject checks and grants that change the arguments. Returns the cases for any test runner to
 * run; each builds its own store through `subject`.
 *
 * Times are data here (a record's `createdAt` and `expiresAt`, a decision's `at`), all near the
 * current time, so the suite never waits.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { verificationStoreContract } from '@milpa/core/testing';
 *
 * describe('MyVerificationStore', () => {
 *   for (const contractCase of verificationStoreContract(() => new MyVerificationStore())) it(contractCase.name, contractCase.run);
 * });
 */
export function verificationStoreContract(subject: StoreContractSubject<VerificationStore>): readonly StoreContractCase[] {
  return buildCases('verificationStoreContract', subject, definitions());
}
