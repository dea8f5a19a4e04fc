import type {
  VerificationApproval,
  VerificationDecision,
  VerificationDecisionOutcome,
  VerificationRecord,
  VerificationRefusal,
} from '../contracts/verification-store.js';
import type { ApprovalPolicy } from '../verification/approval-policy.js';
import { VerificationRequest } from '../verification/verification-request.js';
import { VerificationResult } from '../verification/verification-result.js';
import { check, checkSame } from './contract-checks.js';

// The records, decisions and checks the verification store contract's cases share.

/** A minute in milliseconds. */
export const MINUTE = 60_000;
/** How many callers race in the concurrency cases. */
export const RACERS = 10;

/** What a case may set on the record it opens. */
export interface RecordShape {
  readonly policy?: ApprovalPolicy;
  readonly requiredApprovals?: number;
  readonly requestedBy?: string | null;
  readonly expiresInMs?: number | null;
  readonly payload?: Readonly<Record<string, unknown>>;
}

/** A pending record opened `now`, with an id unique to the case. */
export function pendingRecord(id: string, now: number, shape: RecordShape = {}): VerificationRecord {
  const policy = shape.policy ?? 'single';
  const expiresInMs = shape.expiresInMs === undefined ? 10 * MINUTE : shape.expiresInMs;
  return Object.freeze({
    id,
    request: new VerificationRequest(
      `gate:${id}`,
      policy,
      shape.payload ?? { amount: 120 },
      shape.requestedBy === undefined ? 'user:requester' : shape.requestedBy,
      id,
    ),
    createdAt: new Date(now),
    expiresAt: expiresInMs === null ? null : new Date(now + expiresInMs),
    requiredApprovals: shape.requiredApprovals ?? (policy === 'dual' ? 2 : 1),
    approvals: Object.freeze([]),
    result: null,
    resolvedAt: null,
  });
}

export function grant(
  principal: string,
  at: number,
  options: { subject?: string | null; reason?: string | null; changes?: Readonly<Record<string, unknown>> } = {},
): VerificationDecision {
  return Object.freeze({
    kind: 'grant',
    principal,
    reason: options.reason ?? null,
    at: new Date(at),
    subject: options.subject ?? null,
    ...(options.changes === undefined ? {} : { changes: options.changes }),
    result: VerificationResult.pass('human', principal, { channel: 'web' }),
  });
}

export function reject(principal: string, at: number, reason: string): VerificationDecision {
  return Object.freeze({
    kind: 'reject',
    principal,
    reason,
    at: new Date(at),
    subject: null,
    result: VerificationResult.fail(reason, ['approval'], 'human', {}, principal),
  });
}

export function checkRefused(outcome: VerificationDecisionOutcome, refusal: VerificationRefusal, what: string): void {
  check(
    outcome.status === 'refused' && outcome.refusal === refusal,
    `${what} should be refused as ${refusal}`,
    outcome.status === 'refused' ? outcome.refusal : outcome.status,
  );
}

export function checkPending(record: VerificationRecord | null, approvals: readonly string[], what: string): void {
  check(record !== null, `${what}: the record should still exist`);
  checkSame(record.result, null, `${what}: the verdict of a pending record`);
  checkSame(record.resolvedAt, null, `${what}: resolvedAt of a pending record`);
  checkSame(
    record.approvals.map((approval) => approval.principal),
    approvals,
    `${what}: the approving principals`,
  );
}

/** The fields every approval has; a store may keep more. */
export function approvalFields({ principal, at, reason }: VerificationApproval): Pick<VerificationApproval, 'principal' | 'at' | 'reason'> {
  return { principal, at, reason };
}

/** A unique id per case run, so a store shared between cases cannot mix them up. */
export function newId(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
