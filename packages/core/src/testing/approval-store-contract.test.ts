import { describe, expect, it } from 'vitest';
import type { ApprovalClaim, ApprovalRedemption, ApprovalSettlement, ApprovalStore, PendingApproval } from '../contracts/approval-store.js';
import { checkApprovalClaim } from '../approval/check-approval-claim.js';
import { approvalSettlementContract, approvalStoreContract } from './approval-store-contract.js';
import { failingCaseNames } from './contract-failures.test-helper.js';

interface Flaws {
  /** redeem reads, yields, then writes: racing claims all redeem. */
  readonly racy?: boolean;
  /** a redeemed call stays redeemable. */
  readonly reusable?: boolean;
  /** only the tool is checked, not who claims. */
  readonly ignoresBinding?: boolean;
  /** expiry is ignored. */
  readonly ignoresExpiry?: boolean;
  /** open overwrites a taken id. */
  readonly overwrites?: boolean;
  /** arguments are stored without their nested values. */
  readonly flattensArguments?: boolean;
  /** settle overwrites an earlier settlement. */
  readonly settlesTwice?: boolean;
  /** settle records an outcome on a call never redeemed. */
  readonly settlesUnredeemed?: boolean;
}

/** A small approval store, with optional flaws the suite must catch. */
class FakeApprovalStore implements ApprovalStore {
  readonly #records = new Map<string, PendingApproval>();

  constructor(private readonly flaws: Flaws) {}

  open(approval: PendingApproval): boolean {
    if (this.#records.has(approval.approvalId) && !this.flaws.overwrites) return false;
    const args = this.flaws.flattensArguments
      ? Object.fromEntries(Object.entries(approval.arguments).filter(([, value]) => typeof value !== 'object'))
      : approval.arguments;
    this.#records.set(approval.approvalId, { ...approval, arguments: args });
    return true;
  }

  get(approvalId: string): PendingApproval | null {
    return this.#records.get(approvalId) ?? null;
  }

  async redeem(approvalId: string, claim: ApprovalClaim): Promise<ApprovalRedemption> {
    const approval = this.#records.get(approvalId) ?? null;
    if (this.flaws.racy) await new Promise((resolve) => setTimeout(resolve, 1));
    if (approval === null) return { status: 'refused', refusal: 'not_found', approval: null };
    const checked: PendingApproval = this.flaws.reusable ? { ...approval, redeemedAt: null } : approval;
    let effective: ApprovalClaim = claim;
    if (this.flaws.ignoresBinding)
      effective = { ...effective, principal: approval.principal, channel: approval.channel, runId: approval.runId };
    if (this.flaws.ignoresExpiry) effective = { ...effective, at: approval.createdAt };
    const refusal = checkApprovalClaim(checked, effective);
    if (refusal !== null) return { status: 'refused', refusal, approval };
    const used = { ...approval, redeemedAt: claim.at };
    this.#records.set(approvalId, used);
    return { status: 'redeemed', approval: used };
  }

  settle(approvalId: string, settlement: ApprovalSettlement): boolean {
    const approval = this.#records.get(approvalId);
    if (approval === undefined) return false;
    if (approval.redeemedAt === null && !this.flaws.settlesUnredeemed) return false;
    if ((approval.settlement ?? null) !== null && !this.flaws.settlesTwice) return false;
    this.#records.set(approvalId, { ...approval, settlement });
    return true;
  }
}

function failuresOf(flaws: Flaws): Promise<string[]> {
  return failingCaseNames(approvalStoreContract(() => new FakeApprovalStore(flaws)));
}

describe('approvalStoreContract', () => {
  it('passes a store that keeps the contract', async () => {
    expect(await failuresOf({})).toEqual([]);
  });

  it('fails a store whose redemptions race', async () => {
    expect(await failuresOf({ racy: true })).toEqual([
      '20 claims racing for one held call redeem it exactly once; the others are refused as used',
    ]);
  });

  it('fails a store that lets a used call be redeemed again', async () => {
    expect(await failuresOf({ reusable: true })).toEqual([
      'the requester redeems a held call once: it is marked used, and every later claim is refused as used',
      '20 claims racing for one held call redeem it exactly once; the others are refused as used',
    ]);
  });

  it('fails a store that ignores who claims', async () => {
    expect(await failuresOf({ ignoresBinding: true })).toEqual([
      'open keeps a held call without a principal and without a run, and its requester redeems it',
      'a claim by another tool, principal, channel or run is refused with its own reason and leaves the call redeemable',
    ]);
  });

  it('fails a store that ignores the expiry', async () => {
    expect(await failuresOf({ ignoresExpiry: true })).toEqual([
      'a claim after the expiry is refused as expired; one at the expiry instant redeems',
    ]);
  });

  it('fails a store whose open overwrites a taken id', async () => {
    expect(await failuresOf({ overwrites: true })).toEqual(['open refuses an id that is taken and keeps the first held call']);
  });

  it('fails a store that loses nested arguments', async () => {
    expect(await failuresOf({ flattensArguments: true })).toContain('open stores a held call that get returns field for field, unredeemed');
  });
});

describe('approvalSettlementContract', () => {
  const settleFailures = (flaws: Flaws): Promise<string[]> =>
    failingCaseNames(approvalSettlementContract(() => new FakeApprovalStore(flaws)));

  it('passes a store that keeps the contract', async () => {
    expect(await settleFailures({})).toEqual([]);
  });

  it('fails a store that settles a call twice', async () => {
    expect(await settleFailures({ settlesTwice: true })).toEqual([
      'a call is settled once: a second settle is refused and the first outcome stays',
      '20 racing settles of one call record exactly one outcome',
    ]);
  });

  it('fails a store that settles a call never redeemed', async () => {
    expect(await settleFailures({ settlesUnredeemed: true })).toEqual([
      'settle refuses an unknown id and a call never redeemed, and records nothing',
    ]);
  });

  it('fails a store without settle, naming the method', async () => {
    const store: ApprovalStore = {
      open: () => true,
      get: () => null,
      redeem: () => ({ status: 'refused', refusal: 'not_found', approval: null }),
    };
    const [first] = approvalSettlementContract(() => store);
    await expect(first!.run()).rejects.toThrow(/should implement settle/);
  });
});
