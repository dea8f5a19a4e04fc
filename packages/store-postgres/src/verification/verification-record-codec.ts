import {
  ApprovalPolicy,
  VerificationRequest,
  VerificationResult,
  VerificationStatus,
  type VerificationApproval,
  type VerificationRecord,
} from '@milpa/core';
import { deepFreeze, isRecord } from '@milpa/core/kit';
import { fromJsonColumn, toJsonColumn } from '../database/json-column.js';
import { malformedRow } from '../database/store-database.js';

/** A record as the `record_json` column holds it: times as epoch milliseconds. */
interface StoredRecord {
  readonly request: { subject: string | null; policy: string; payload: Record<string, unknown>; requestedBy: string | null };
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly requiredApprovals: number;
  readonly approvals: readonly { principal: string; at: number; reason: string | null; changes?: Record<string, unknown> }[];
  readonly result: {
    status: string;
    reason: string | null;
    verifier: string | null;
    principal: string | null;
    missing: readonly string[];
    metadata: Record<string, unknown>;
  } | null;
  readonly resolvedAt: number | null;
}

/** Writes a record as JSON for `record_json`. @throws MilpaError `INVALID_ARGUMENT` when its payload or metadata is not plain JSON. */
export function encodeVerificationRecord(record: VerificationRecord): string {
  const stored: StoredRecord = {
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
  return toJsonColumn(stored, `Verification request '${record.id}'`);
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
 * Reads the record `id` back from its `record_json`, as the value objects it was opened with.
 * @throws PostgresStoreError `malformed` when the column does not hold a record this store wrote.
 */
export function decodeVerificationRecord(id: string, json: unknown): VerificationRecord {
  const malformed = (): Error => malformedRow('verification', `verification request '${id}' does not hold a verification record`);
  const stored = fromJsonColumn(json);
  if (!isRecord(stored) || !isRecord(stored['request'])) throw malformed();
  const { request, createdAt, expiresAt, requiredApprovals, resolvedAt } = stored;
  const { subject, policy, payload, requestedBy } = request as Record<string, unknown>;
  if (!isTextOrNull(subject) || !ApprovalPolicy.isApprovalPolicy(policy) || !isRecord(payload) || !isTextOrNull(requestedBy))
    throw malformed();
  if (!isTime(createdAt) || !(expiresAt === null || isTime(expiresAt)) || !(resolvedAt === null || isTime(resolvedAt))) throw malformed();
  if (typeof requiredApprovals !== 'number' || !Number.isInteger(requiredApprovals) || requiredApprovals < 0) throw malformed();
  const approvals = rebuildApprovals(stored['approvals']);
  const result = rebuildResult(stored['result']);
  if (approvals === undefined || result === undefined || (result === null) !== (resolvedAt === null)) throw malformed();
  let rebuiltRequest: VerificationRequest;
  try {
    rebuiltRequest = new VerificationRequest(subject, policy, payload, requestedBy, id);
  } catch (error) {
    throw malformedRow('verification', `verification request '${id}' holds an invalid request`, error);
  }
  return Object.freeze({
    id,
    request: rebuiltRequest,
    createdAt: new Date(createdAt),
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
    requiredApprovals,
    approvals,
    result,
    resolvedAt: resolvedAt === null ? null : new Date(resolvedAt),
  });
}
