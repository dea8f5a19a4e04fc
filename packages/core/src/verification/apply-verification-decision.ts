import { canonicalJson } from '../kit/canonical-json.js';
import { deepFreeze } from '../kit/deep-freeze.js';
import type {
  VerificationApproval,
  VerificationDecision,
  VerificationDecisionOutcome,
  VerificationRecord,
} from '../contracts/verification-store.js';

/**
 * The transition rules of a verification request, as a pure function: given the current record
 * (or null when the id is unknown) and a decision, returns what the decision does and the next
 * record. A store calls it inside its own atomic step (a lock, a transaction, a compare-and-set)
 * and writes `outcome.record` back unless the outcome is `refused`. It never mutates its input.
 *
 * The checks run in this order; the first failing one refuses the decision:
 * 1. unknown id → `not_found`;
 * 2. a final verdict exists → `already_resolved` (even past the expiry: the verdict stands);
 * 3. `decision.at` is after `expiresAt` → `expired`;
 * 4. `decision.subject` is set and differs from the stored subject → `subject_mismatch`;
 * 5. a grant by the requester → `self_approval` (a requester may still reject, i.e. withdraw, its own request);
 * 6. a grant by a principal that already granted → `duplicate_approval`.
 *
 * A reject then finalizes the request with `decision.result`. A grant is appended to the approvals;
 * when the approvals reach `requiredApprovals`, the request is finalized with `decision.result`.
 * A grant with `changes` that differ from the ones in effect replaces the approvals instead (the
 * earlier grants approved other arguments), so its principal may be one that granted before; a
 * grant without changes approves the ones in effect.
 *
 * @example
 * // inside a store's transaction:
 * const outcome = applyVerificationDecision(current, decision);
 * if (outcome.status !== 'refused') save(outcome.record);
 */
export function applyVerificationDecision(record: VerificationRecord | null, decision: VerificationDecision): VerificationDecisionOutcome {
  if (record === null) return { status: 'refused', refusal: 'not_found', record: null };
  if (record.result !== null) return { status: 'refused', refusal: 'already_resolved', record };
  if (record.expiresAt !== null && decision.at.getTime() > record.expiresAt.getTime()) {
    return { status: 'refused', refusal: 'expired', record };
  }
  if (decision.subject !== null && decision.subject !== record.request.subject) {
    return { status: 'refused', refusal: 'subject_mismatch', record };
  }
  if (decision.kind === 'reject') {
    return { status: 'resolved', record: finalize(record, record.approvals, decision) };
  }
  // Compared trimmed, so a padded spelling cannot dodge self-approval or pose as a second approver.
  if (record.request.requestedBy !== null && decision.principal.trim() === record.request.requestedBy.trim()) {
    return { status: 'refused', refusal: 'self_approval', record };
  }
  const current = currentChanges(record);
  const proposed = decision.changes ?? null;
  // A grant that changes the arguments approves something the earlier grants never saw: they no
  // longer count, and the approvals start over from this one.
  const amends = proposed !== null && canonicalJson(proposed) !== canonicalJson(current);
  if (!amends && record.approvals.some((approval) => approval.principal.trim() === decision.principal.trim())) {
    return { status: 'refused', refusal: 'duplicate_approval', record };
  }
  const changes = amends ? frozenCopy(proposed) : current;
  const grant: VerificationApproval = Object.freeze({
    principal: decision.principal,
    at: decision.at,
    reason: decision.reason,
    ...(changes === null ? {} : { changes }),
  });
  const approvals = Object.freeze(amends ? [grant] : [...record.approvals, grant]);
  if (approvals.length >= record.requiredApprovals) {
    return { status: 'resolved', record: finalize(record, approvals, decision) };
  }
  return { status: 'recorded', record: Object.freeze({ ...record, approvals }) };
}

function finalize(
  record: VerificationRecord,
  approvals: VerificationRecord['approvals'],
  decision: VerificationDecision,
): VerificationRecord {
  return Object.freeze({ ...record, approvals, result: decision.result, resolvedAt: decision.at });
}

/** The replacements the latest grant approved, or null. */
function currentChanges(record: VerificationRecord): Readonly<Record<string, unknown>> | null {
  return record.approvals.at(-1)?.changes ?? null;
}

/** A deep, frozen copy of JSON data, so the stored grant cannot change under the store. */
function frozenCopy(value: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return deepFreeze(JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
}
