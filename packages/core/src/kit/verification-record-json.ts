import type { VerificationApproval, VerificationRecord } from '../contracts/verification-store.js';
import { ApprovalPolicy } from '../verification/approval-policy.js';
import { VerificationRequest } from '../verification/verification-request.js';
import { VerificationResult } from '../verification/verification-result.js';
import { VerificationStatus } from '../verification/verification-status.js';
import { deepFreeze } from './deep-freeze.js';
import { isRecord } from './is-record.js';

/**
 * A verification record as a durable store keeps it: plain JSON data, times as epoch milliseconds.
 * Write it with {@link verificationRecordToJson}, read it back with {@link readVerificationRecordJson}.
 */
export interface VerificationRecordJson {
  /** The request: its subject, policy, payload and requester. */
  readonly request: {
    readonly subject: string | null;
    readonly policy: string;
    readonly payload: Record<string, unknown>;
    readonly requestedBy: string | null;
  };
  /** When the request was opened. */
  readonly createdAt: number;
  /** Its deadline, or null. */
  readonly expiresAt: number | null;
  /** How many distinct grants resolve it. */
  readonly requiredApprovals: number;
  /** The grants so far; `changes` only when a grant changed the arguments. */
  readonly approvals: readonly {
    readonly principal: string;
    readonly at: number;
    readonly reason: string | null;
    readonly changes?: Record<string, unknown>;
  }[];
  /** The verdict, or null while pending. */
  readonly result: {
    readonly status: string;
    readonly reason: string | null;
    readonly verifier: string | null;
    readonly principal: string | null;
    readonly missing: readonly string[];
    readonly metadata: Record<string, unknown>;
  } | null;
  /** When it was resolved, or null. */
  readonly resolvedAt: number | null;
}

/** What {@link readVerificationRecordJson} found: the record, or what is wrong with the stored value. */
export type VerificationRecordRead =
  | { readonly ok: true; readonly value: VerificationRecord }
  | { readonly ok: false; readonly error: string; readonly cause?: unknown };

/**
 * `record` as plain data for a durable store (times as epoch milliseconds); the store still checks
 * that the payload and metadata are plain JSON when it serialises it.
 *
 * @example
 * const text = JSON.stringify(verificationRecordToJson(record));
 */
export function verificationRecordToJson(record: VerificationRecord): VerificationRecordJson {
  return {
    request: {
      subject: record.request.subject,
      policy: record.request.policy,
      payload: { ...record.request.payload },
      requestedBy: record.request.requestedBy,
    },
    createdAt: record.createdAt.getTime(),
    expiresAt: record.expiresAt === null ? null : record.expiresAt.getTime(),
    requiredApprovals: record.requiredApprovals,
    approvals: record.approvals.map((approval) => ({
      principal: approval.principal,
      at: approval.at.getTime(),
      reason: approval.reason,
      ...(approval.changes === null || approval.changes === undefined ? {} : { changes: approval.changes }),
    })),
    result:
      record.result === null
        ? null
        : {
            status: record.result.status,
            reason: record.result.reason,
            verifier: record.result.verifier,
            principal: record.result.principal,
            missing: [...record.result.missing],
            metadata: { ...record.result.metadata },
          },
    resolvedAt: record.resolvedAt === null ? null : record.resolvedAt.getTime(),
  };
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function rebuildResult(result: unknown): VerificationResult | null | undefined {
  if (result === null) return null;
  if (!isRecord(result)) return undefined;
  const { status, reason, verifier, principal, missing, metadata } = result;
  if (!isTextOrNull(reason) || !isTextOrNull(verifier) || !isTextOrNull(principal) || !isRecord(metadata)) return undefined;
  if (!Array.isArray(missing) || !missing.every(isText)) return undefined;
  switch (status) {
    case VerificationStatus.PASSED:
      return VerificationResult.pass(verifier, principal, metadata);
    case VerificationStatus.FAILED:
      return VerificationResult.fail(reason ?? '', missing, verifier, metadata, principal);
    case VerificationStatus.WAIVED:
      return VerificationResult.waived(reason ?? '', principal, verifier, metadata);
    case VerificationStatus.PENDING:
      return VerificationResult.pending(verifier, metadata);
    default:
      return undefined;
  }
}

function rebuildApprovals(approvals: unknown): readonly VerificationApproval[] | undefined {
  if (!Array.isArray(approvals)) return undefined;
  const rebuilt: VerificationApproval[] = [];
  for (const approval of approvals as unknown[]) {
    if (!isRecord(approval) || !isText(approval['principal']) || !isTime(approval['at']) || !isTextOrNull(approval['reason']))
      return undefined;
    const changes = approval['changes'];
    if (changes !== undefined && !isRecord(changes)) return undefined;
    rebuilt.push(
      Object.freeze({
        principal: approval['principal'],
        at: new Date(approval['at']),
        reason: approval['reason'],
        ...(changes === undefined ? {} : { changes: deepFreeze(changes) }),
      }),
    );
  }
  return Object.freeze(rebuilt);
}

/**
 * Reads the record `id` back from what {@link verificationRecordToJson} wrote (already parsed from
 * JSON), as the value objects it was opened with; never throws.
 *
 * @example
 * const read = readVerificationRecordJson(id, JSON.parse(text));
 * if (!read.ok) throw new Error(`verification request '${id}' ${read.error}`);
 */
export function readVerificationRecordJson(id: string, stored: unknown): VerificationRecordRead {
  const malformed: VerificationRecordRead = { ok: false, error: 'does not hold a verification record' };
  if (!isRecord(stored) || !isRecord(stored['request'])) return malformed;
  const { request, createdAt, expiresAt, requiredApprovals, resolvedAt } = stored;
  const { subject, policy, payload, requestedBy } = request as Record<string, unknown>;
  if (!isTextOrNull(subject) || !ApprovalPolicy.isApprovalPolicy(policy) || !isRecord(payload) || !isTextOrNull(requestedBy))
    return malformed;
  if (!isTime(createdAt) || !(expiresAt === null || isTime(expiresAt)) || !(resolvedAt === null || isTime(resolvedAt))) return malformed;
  if (typeof requiredApprovals !== 'number' || !Number.isInteger(requiredApprovals) || requiredApprovals < 0) return malformed;
  const approvals = rebuildApprovals(stored['approvals']);
  const result = rebuildResult(stored['result']);
  if (approvals === undefined || result === undefined || (result === null) !== (resolvedAt === null)) return malformed;
  let rebuiltRequest: VerificationRequest;
  try {
    rebuiltRequest = new VerificationRequest(subject, policy, payload, requestedBy, id);
  } catch (error) {
    return { ok: false, error: 'holds an invalid request', cause: error };
  }
  return {
    ok: true,
    value: Object.freeze({
      id,
      request: rebuiltRequest,
      createdAt: new Date(createdAt),
      expiresAt: expiresAt === null ? null : new Date(expiresAt),
      requiredApprovals,
      approvals,
      result,
      resolvedAt: resolvedAt === null ? null : new Date(resolvedAt),
    }),
  };
}
