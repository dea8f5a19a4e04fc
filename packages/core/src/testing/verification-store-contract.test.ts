import { describe, expect, it } from 'vitest';
import type {
  VerificationDecision,
  VerificationDecisionOutcome,
  VerificationRecord,
  VerificationStore,
} from '../contracts/verification-store.js';
import { failingCaseNames } from './contract-failures.test-helper.js';
import { verificationStoreContract } from './verification-store-contract.js';

interface Flaws {
  /** a requester may grant its own request. */
  readonly allowsSelfApproval?: boolean;
  /** one principal's grants count again and again. */
  readonly countsRepeatedGrants?: boolean;
  /** deadlines are ignored. */
  readonly ignoresDeadlines?: boolean;
  /** decide reads, yields, then writes: racing decisions all apply. */
  readonly racy?: boolean;
  /** open overwrites a taken id. */
  readonly overwrites?: boolean;
  /** a grant's changes are not kept, and never start the approvals over. */
  readonly dropsChanges?: boolean;
}

/** A small verification store, with optional flaws the suite must catch. */
class FakeVerificationStore implements VerificationStore {
  readonly #records = new Map<string, VerificationRecord>();

  constructor(private readonly flaws: Flaws) {}

  open(record: VerificationRecord): boolean {
    if (this.#records.has(record.id) && !this.flaws.overwrites) return false;
    this.#records.set(record.id, record);
    return true;
  }

  get(id: string): VerificationRecord | null {
    return this.#records.get(id) ?? null;
  }

  async decide(id: string, decision: VerificationDecision): Promise<VerificationDecisionOutcome> {
    const record = this.#records.get(id) ?? null;
    if (this.flaws.racy) await new Promise((resolve) => setTimeout(resolve, 1));
    const outcome = this.#apply(record, decision);
    if (outcome.status !== 'refused') this.#records.set(id, outcome.record);
    return outcome;
  }

  #apply(record: VerificationRecord | null, decision: VerificationDecision): VerificationDecisionOutcome {
    const refuse = (refusal: 'not_found' | 'already_resolved' | 'expired' | 'subject_mismatch' | 'self_approval' | 'duplicate_approval') =>
      ({ status: 'refused', refusal, record }) as const;
    if (record === null) return refuse('not_found');
    if (record.result !== null) return refuse('already_resolved');
    if (!this.flaws.ignoresDeadlines && record.expiresAt !== null && decision.at > record.expiresAt) return refuse('expired');
    if (decision.subject !== null && decision.subject !== record.request.subject) return refuse('subject_mismatch');
    const resolve = (approvals: VerificationRecord['approvals']) =>
      ({ status: 'resolved', record: { ...record, approvals, result: decision.result, resolvedAt: decision.at } }) as const;
    if (decision.kind === 'reject') return resolve(record.approvals);
    if (!this.flaws.allowsSelfApproval && decision.principal === record.request.requestedBy) return refuse('self_approval');
    const current = record.approvals.at(-1)?.changes ?? null;
    const proposed = this.flaws.dropsChanges ? null : (decision.changes ?? null);
    const amends = proposed !== null && JSON.stringify(proposed) !== JSON.stringify(current);
    if (!amends && !this.flaws.countsRepeatedGrants && record.approvals.some((approval) => approval.principal === decision.principal))
      return refuse('duplicate_approval');
    const changes = amends ? proposed : current;
    const grant = { principal: decision.principal, at: decision.at, reason: decision.reason, ...(changes === null ? {} : { changes }) };
    const approvals = amends ? [grant] : [...record.approvals, grant];
    return approvals.length >= record.requiredApprovals ? resolve(approvals) : { status: 'recorded', record: { ...record, approvals } };
  }
}

function failuresOf(flaws: Flaws): Promise<string[]> {
  return failingCaseNames(verificationStoreContract(() => new FakeVerificationStore(flaws)));
}

describe('verificationStoreContract', () => {
  it('passes a store that keeps the contract', async () => {
    expect(await failuresOf({})).toEqual([]);
  });

  it('fails a store that lets a requester grant its own request', async () => {
    expect(await failuresOf({ allowsSelfApproval: true })).toEqual(['the requester cannot grant its own request but may reject it']);
  });

  it('fails a store that counts one approver twice', async () => {
    expect(await failuresOf({ countsRepeatedGrants: true })).toEqual([
      'a dual request needs two distinct approvers: the first grant is recorded, a repeat refused, the second resolves',
      'one approver granting a dual request 10 times at once is recorded once and leaves it pending',
      'a grant with other changes starts the approvals over, so earlier approvers must approve again',
    ]);
  });

  it('fails a store that drops the changes a grant makes', async () => {
    expect(await failuresOf({ dropsChanges: true })).toEqual([
      'a grant that changes arguments is stored with its changes, and a later grant without changes approves them',
      'a grant with other changes starts the approvals over, so earlier approvers must approve again',
    ]);
  });

  it('fails a store that ignores deadlines', async () => {
    expect(await failuresOf({ ignoresDeadlines: true })).toEqual([
      'a decision after the deadline is refused as expired and the request stays pending; one at the deadline counts',
    ]);
  });

  it('fails a store whose decisions race', async () => {
    expect(await failuresOf({ racy: true })).toEqual([
      'a single request is resolved exactly once when 10 approvers grant it at the same time',
      'one approver granting a dual request 10 times at once is recorded once and leaves it pending',
    ]);
  });

  it('fails a store whose open overwrites a taken id', async () => {
    expect(await failuresOf({ overwrites: true })).toEqual(['open refuses an id that is taken and keeps the first record']);
  });
});
