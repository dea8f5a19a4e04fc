import type {
  ApprovalClaim,
  ApprovalRedemption,
  ApprovalRefusal,
  ApprovalSettlement,
  ApprovalStore,
  PendingApproval,
} from '../contracts/approval-store.js';
import { buildCases, check, checkSame, type CaseDefinition } from './contract-checks.js';
import type { StoreContractCase, StoreContractSubject } from './store-contract-case.js';

type Definition = CaseDefinition<ApprovalStore, void>;

const MINUTE = 60_000;
const RACERS = 20;

let sequence = 0;

/** An approval id unique to the case and the process (32 lowercase hex digits, as the registry issues). */
function newId(): string {
  sequence += 1;
  const random = Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
  return `${Date.now().toString(16).padStart(16, '0')}${random}${sequence.toString(16).padStart(8, '0')}`.slice(-32);
}

interface HeldShape {
  readonly principal?: string | null;
  readonly runId?: string | null;
  readonly expiresInMs?: number;
}

/** A held call opened `now`. */
function heldCall(approvalId: string, now: number, shape: HeldShape = {}): PendingApproval {
  return Object.freeze({
    approvalId,
    toolName: 'delete_note',
    arguments: Object.freeze({ id: 7, folder: 'field', tags: Object.freeze(['old', 'draft']), options: Object.freeze({ hard: false }) }),
    argumentsDigest: `digest-${approvalId}`,
    principal: shape.principal === undefined ? 'agent:7' : shape.principal,
    channel: 'mcp',
    runId: shape.runId === undefined ? 'run_1' : shape.runId,
    requestId: `req-${approvalId}`,
    createdAt: new Date(now),
    expiresAt: new Date(now + (shape.expiresInMs ?? 10 * MINUTE)),
    redeemedAt: null,
  });
}

/** The requester's claim on `held`, at `at`. */
function claimOf(held: PendingApproval, at: number, change: Partial<ApprovalClaim> = {}): ApprovalClaim {
  return { toolName: held.toolName, principal: held.principal, channel: held.channel, runId: held.runId, at: new Date(at), ...change };
}

function checkRefused(outcome: ApprovalRedemption, refusal: ApprovalRefusal, what: string): void {
  check(
    outcome.status === 'refused' && outcome.refusal === refusal,
    `${what} should be refused as ${refusal}`,
    outcome.status === 'refused' ? outcome.refusal : outcome.status,
  );
}

/** The fields of a held call, without `redeemedAt`. */
function heldFields(approval: PendingApproval | null | undefined): Omit<PendingApproval, 'redeemedAt' | 'settlement'> | null {
  if (approval === null || approval === undefined) return null;
  const { redeemedAt: _redeemedAt, settlement: _settlement, ...fields } = approval;
  return fields;
}

function definitions(): readonly Definition[] {
  return [
    {
      name: 'open stores a held call that get returns field for field, unredeemed',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const held = heldCall(newId(), now);
        checkSame(await store.open(held), true, 'open of a new held call');
        const stored = await store.get(held.approvalId);
        checkSame(heldFields(stored), heldFields(held), 'the stored held call');
        checkSame(stored?.redeemedAt ?? null, null, 'redeemedAt of a held call never redeemed');
      },
    },
    {
      name: 'open keeps a held call without a principal and without a run, and its requester redeems it',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const held = heldCall(newId(), now, { principal: null, runId: null });
        await store.open(held);
        checkSame(heldFields(await store.get(held.approvalId)), heldFields(held), 'the stored held call without principal and run');
        checkRefused(
          await store.redeem(held.approvalId, claimOf(held, now + 1_000, { principal: 'agent:7' })),
          'principal_mismatch',
          'a claim with a principal on a call held without one',
        );
        checkRefused(
          await store.redeem(held.approvalId, claimOf(held, now + 1_000, { runId: 'run_1' })),
          'run_mismatch',
          'a claim with a run on a call held without one',
        );
        checkSame((await store.redeem(held.approvalId, claimOf(held, now + 2_000))).status, 'redeemed', "the requester's claim");
      },
    },
    {
      name: 'open refuses an id that is taken and keeps the first held call',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const first = heldCall(newId(), now);
        await store.open(first);
        const second = Object.freeze({ ...heldCall(first.approvalId, now), toolName: 'delete_all', principal: 'agent:evil' });
        checkSame(await store.open(second), false, 'open of a taken id');
        checkSame(heldFields(await store.get(first.approvalId)), heldFields(first), 'the held call after a refused open');
      },
    },
    {
      name: 'get answers null and redeem refuses as not_found for an id never opened',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const ghost = heldCall(newId(), now);
        checkSame(await store.get(ghost.approvalId), null, 'get of an unknown id');
        const outcome = await store.redeem(ghost.approvalId, claimOf(ghost, now));
        checkRefused(outcome, 'not_found', 'redeem of an unknown id');
        checkSame(outcome.status === 'refused' ? outcome.approval : undefined, null, 'the record a not_found refusal returns');
      },
    },
    {
      name: 'the requester redeems a held call once: it is marked used, and every later claim is refused as used',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const held = heldCall(newId(), now);
        await store.open(held);
        const outcome = await store.redeem(held.approvalId, claimOf(held, now + 1_000));
        check(outcome.status === 'redeemed', "the requester's claim should redeem the held call", outcome);
        checkSame(heldFields(outcome.approval), heldFields(held), 'the redeemed held call');
        check(outcome.approval.redeemedAt instanceof Date, 'the redeemed held call should carry redeemedAt', outcome.approval.redeemedAt);
        const stored = await store.get(held.approvalId);
        check(stored?.redeemedAt instanceof Date, 'get should show the held call as redeemed', stored?.redeemedAt);
        checkRefused(await store.redeem(held.approvalId, claimOf(held, now + 2_000)), 'used', 'a second claim by the requester');
        checkRefused(
          await store.redeem(held.approvalId, claimOf(held, now + 3_000, { principal: 'agent:8' })),
          'used',
          'a claim by another principal on a used call',
        );
      },
    },
    {
      name: 'a claim by another tool, principal, channel or run is refused with its own reason and leaves the call redeemable',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const held = heldCall(newId(), now);
        await store.open(held);
        const attempts: readonly [Partial<ApprovalClaim>, ApprovalRefusal][] = [
          [{ toolName: 'delete_all' }, 'tool_mismatch'],
          [{ principal: 'agent:8' }, 'principal_mismatch'],
          [{ principal: null }, 'principal_mismatch'],
          [{ channel: 'web' }, 'channel_mismatch'],
          [{ runId: 'run_2' }, 'run_mismatch'],
          [{ runId: null }, 'run_mismatch'],
        ];
        for (const [change, refusal] of attempts) {
          checkRefused(
            await store.redeem(held.approvalId, claimOf(held, now + 1_000, change)),
            refusal,
            `a claim with ${JSON.stringify(change)}`,
          );
        }
        checkSame((await store.get(held.approvalId))?.redeemedAt ?? null, null, 'redeemedAt after refused claims');
        checkSame(
          (await store.redeem(held.approvalId, claimOf(held, now + 2_000))).status,
          'redeemed',
          "the requester's claim after refused ones",
        );
      },
    },
    {
      name: 'a claim after the expiry is refused as expired; one at the expiry instant redeems',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const late = heldCall(newId(), now, { expiresInMs: MINUTE });
        await store.open(late);
        checkRefused(
          await store.redeem(late.approvalId, claimOf(late, now + MINUTE + 1)),
          'expired',
          'a claim one millisecond after the expiry',
        );
        checkSame((await store.get(late.approvalId))?.redeemedAt ?? null, null, 'redeemedAt after an expired claim');
        const onTime = heldCall(newId(), now, { expiresInMs: MINUTE });
        await store.open(onTime);
        checkSame(
          (await store.redeem(onTime.approvalId, claimOf(onTime, now + MINUTE))).status,
          'redeemed',
          'a claim at the expiry instant',
        );
      },
    },
    {
      name: `${String(RACERS)} claims racing for one held call redeem it exactly once; the others are refused as used`,
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const held = heldCall(newId(), now);
        await store.open(held);
        const outcomes = await Promise.all(
          Array.from({ length: RACERS }, async () => store.redeem(held.approvalId, claimOf(held, now + 1_000))),
        );
        checkSame(
          outcomes.filter((outcome) => outcome.status === 'redeemed').length,
          1,
          `the number of redemptions out of ${String(RACERS)} racing claims`,
        );
        for (const outcome of outcomes.filter((candidate) => candidate.status !== 'redeemed'))
          checkRefused(outcome, 'used', 'a claim that lost the race');
      },
    },
    {
      name: 'held calls are independent: redeeming one leaves another redeemable',
      settings: undefined,
      async body(store) {
        const now = Date.now();
        const first = heldCall(newId(), now);
        const second = heldCall(newId(), now);
        await store.open(first);
        await store.open(second);
        await store.redeem(first.approvalId, claimOf(first, now + 1_000));
        checkSame((await store.get(second.approvalId))?.redeemedAt ?? null, null, 'redeemedAt of the other held call');
        checkSame(
          (await store.redeem(second.approvalId, claimOf(second, now + 2_000))).status,
          'redeemed',
          "the other held call's redemption",
        );
      },
    },
  ];
}

/**
 * The contract test suite of {@link ApprovalStore}: held calls stored as opened (arguments, binding
 * and times), ids taken once, unknown ids refused, a held call redeemed exactly once (also when
 * claims race), every binding mismatch refused with its own reason without using the call up, and
 * expiry. Returns the cases for any test runner to run; each builds its own store through `subject`.
 *
 * Times are data here (a held call's `createdAt` and `expiresAt`, a claim's `at`), all near the
 * current time, so the suite never waits.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { approvalStoreContract } from '@milpa/core/testing';
 *
 * describe('MyApprovalStore', () => {
 *   for (const contractCase of approvalStoreContract(() => new MyApprovalStore())) it(contractCase.name, contractCase.run);
 * });
 */
export function approvalStoreContract(subject: StoreContractSubject<ApprovalStore>): readonly StoreContractCase[] {
  return buildCases('approvalStoreContract', subject, definitions());
}

/** The store's `settle`, or a contract failure naming the missing method. */
function settleOf(store: ApprovalStore): NonNullable<ApprovalStore['settle']> {
  const settle = store.settle;
  check(typeof settle === 'function', 'the store should implement settle(approvalId, settlement)', settle);
  return (settle as NonNullable<ApprovalStore['settle']>).bind(store);
}

/** The settlement a store holds for `approvalId`, as data (absent counts as null). */
async function settlementOf(store: ApprovalStore, approvalId: string): Promise<ApprovalSettlement | null> {
  return (await store.get(approvalId))?.settlement ?? null;
}

/** A held call opened and redeemed by its requester `now`. */
async function redeemedCall(store: ApprovalStore, now: number): Promise<PendingApproval> {
  const held = heldCall(newId(), now);
  await store.open(held);
  const outcome = await store.redeem(held.approvalId, claimOf(held, now + 1_000));
  check(outcome.status === 'redeemed', "the requester's claim should redeem the held call", outcome);
  return held;
}

function settlementDefinitions(): readonly Definition[] {
  return [
    {
      name: 'a held call is unsettled until settle records how its resumed call ended, which get then returns',
      settings: undefined,
      async body(store) {
        const settle = settleOf(store);
        const now = Date.now();
        const held = await redeemedCall(store, now);
        checkSame(await settlementOf(store, held.approvalId), null, 'the settlement of a redeemed call that has not ended');
        const settlement: ApprovalSettlement = { outcome: 'succeeded', code: null, at: new Date(now + 2_000) };
        checkSame(await settle(held.approvalId, settlement), true, 'settle of a redeemed call');
        checkSame(await settlementOf(store, held.approvalId), settlement, 'the recorded settlement');
        check((await store.get(held.approvalId))?.redeemedAt instanceof Date, 'a settled call should stay redeemed', held.approvalId);
      },
    },
    {
      name: 'settle keeps the error code of a failed call',
      settings: undefined,
      async body(store) {
        const settle = settleOf(store);
        const now = Date.now();
        const held = await redeemedCall(store, now);
        const settlement: ApprovalSettlement = { outcome: 'failed', code: 'EXECUTION_ERROR', at: new Date(now + 2_000) };
        checkSame(await settle(held.approvalId, settlement), true, 'settle of a failed call');
        checkSame(await settlementOf(store, held.approvalId), settlement, 'the recorded failure');
      },
    },
    {
      name: 'settle refuses an unknown id and a call never redeemed, and records nothing',
      settings: undefined,
      async body(store) {
        const settle = settleOf(store);
        const now = Date.now();
        const settlement: ApprovalSettlement = { outcome: 'succeeded', code: null, at: new Date(now) };
        checkSame(await settle(newId(), settlement), false, 'settle of an unknown id');
        const held = heldCall(newId(), now);
        await store.open(held);
        checkSame(await settle(held.approvalId, settlement), false, 'settle of a call never redeemed');
        checkSame(await settlementOf(store, held.approvalId), null, 'the settlement of a call never redeemed');
        checkSame(
          (await store.redeem(held.approvalId, claimOf(held, now + 1_000))).status,
          'redeemed',
          'the redemption of a call a refused settle touched',
        );
      },
    },
    {
      name: 'a call is settled once: a second settle is refused and the first outcome stays',
      settings: undefined,
      async body(store) {
        const settle = settleOf(store);
        const now = Date.now();
        const held = await redeemedCall(store, now);
        const first: ApprovalSettlement = { outcome: 'failed', code: 'FORBIDDEN', at: new Date(now + 2_000) };
        await settle(held.approvalId, first);
        checkSame(await settle(held.approvalId, { outcome: 'succeeded', code: null, at: new Date(now + 3_000) }), false, 'a second settle');
        checkSame(await settlementOf(store, held.approvalId), first, 'the settlement after a second settle');
      },
    },
    {
      name: `${String(RACERS)} racing settles of one call record exactly one outcome`,
      settings: undefined,
      async body(store) {
        const settle = settleOf(store);
        const now = Date.now();
        const held = await redeemedCall(store, now);
        const answers = await Promise.all(
          Array.from({ length: RACERS }, async (_unused, index) =>
            settle(held.approvalId, { outcome: 'failed', code: `CODE_${String(index)}`, at: new Date(now + 2_000) }),
          ),
        );
        checkSame(answers.filter((answer) => answer === true).length, 1, `the number of settles out of ${String(RACERS)} racing`);
        const winner = answers.indexOf(true);
        checkSame((await settlementOf(store, held.approvalId))?.code, `CODE_${String(winner)}`, 'the recorded code');
      },
    },
  ];
}

/**
 * The contract test suite of {@link ApprovalStore.settle}, for stores that record how a resumed
 * call ended: a redeemed call is unsettled until settled, settled once (also when settles race),
 * with its outcome, error code and time as given; an unknown or unredeemed call is never settled.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { approvalSettlementContract } from '@milpa/core/testing';
 *
 * describe('MyApprovalStore.settle', () => {
 *   for (const contractCase of approvalSettlementContract(() => new MyApprovalStore())) it(contractCase.name, contractCase.run);
 * });
 */
export function approvalSettlementContract(subject: StoreContractSubject<ApprovalStore>): readonly StoreContractCase[] {
  return buildCases('approvalSettlementContract', subject, settlementDefinitions());
}
