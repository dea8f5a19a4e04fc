import {
  ApprovalPolicy,
  VerificationRequest,
  VerificationResult,
  VerificationStatus,
  type VerificationApproval,
  type VerificationRecord,
} from '@milpa/core';
import { fromJsonText, toJsonText } from '../connection/json-text.js';
import type { Retained } from '../connection/retained-records.js';
import { malformedData } from '../connection/store-connection.js';
import { StoredFields } from '../connection/stored-fields.js';

/** Each verdict rebuilt through its own factory, so a read record is what the verifier produced. */
const RESULT_FACTORIES: Readonly<Record<VerificationStatus, (fields: StoredFields) => VerificationResult>> = Object.freeze({
  [VerificationStatus.PASSED]: (fields) =>
    VerificationResult.pass(fields.textOrNull('verifier'), fields.textOrNull('principal'), fields.object('metadata')),
  [VerificationStatus.FAILED]: (fields) =>
    VerificationResult.fail(
      fields.textOrNull('reason') ?? '',
      fields.texts('missing'),
      fields.textOrNull('verifier'),
      fields.object('metadata'),
      fields.textOrNull('principal'),
    ),
  [VerificationStatus.WAIVED]: (fields) =>
    VerificationResult.waived(
      fields.textOrNull('reason') ?? '',
      fields.textOrNull('principal'),
      fields.textOrNull('verifier'),
      fields.object('metadata'),
    ),
  [VerificationStatus.PENDING]: (fields) => VerificationResult.pending(fields.textOrNull('verifier'), fields.object('metadata')),
});

const STATUSES = Object.values(VerificationStatus);

/**
 * `record` as the JSON text its key holds: times as epoch milliseconds, with `forgetAt`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when its payload, verdict metadata or changes are not plain JSON data.
 */
export function encodeVerificationRecord(record: VerificationRecord, forgetAt: number | null): string {
  return toJsonText(
    {
      forgetAt,
      subject: record.request.subject,
      policy: record.request.policy,
      payload: { ...record.request.payload },
      requestedBy: record.request.requestedBy,
      createdAt: record.createdAt.getTime(),
      expiresAt: record.expiresAt?.getTime() ?? null,
      requiredApprovals: record.requiredApprovals,
      approvals: record.approvals.map(({ principal, at, reason, changes }) => ({
        principal,
        at: at.getTime(),
        reason,
        changes: changes ?? null,
      })),
      result:
        record.result === null
          ? null
          : { ...record.result.toJSON(), missing: [...record.result.missing], metadata: { ...record.result.metadata } },
      resolvedAt: record.resolvedAt?.getTime() ?? null,
    },
    `Verification request '${record.id}'`,
  );
}

/**
 * Reads the record `id` back from the JSON text `text` of its key.
 *
 * @throws RedisStoreError `malformed` when the text is not a record this store wrote.
 */
export function decodeVerificationRecord(id: string, text: string): Retained<VerificationRecord> {
  const malformed = (what: string, cause?: unknown) => malformedData('verification', `verification request '${id}': ${what}`, cause);
  const fields = StoredFields.of(fromJsonText(text), malformed);
  const policy = fields.raw('policy');
  if (!ApprovalPolicy.isApprovalPolicy(policy)) throw malformed('field policy');
  const approvals = fields.list('approvals', (item): VerificationApproval => {
    const approval = StoredFields.of(item, malformed);
    const changes = approval.optionalObject('changes');
    return Object.freeze({
      principal: approval.text('principal'),
      at: approval.time('at'),
      reason: approval.textOrNull('reason'),
      ...(changes === undefined ? {} : { changes }),
    });
  });
  const storedResult = fields.raw('result');
  let result: VerificationResult | null = null;
  if (storedResult !== null) {
    const resultFields = StoredFields.of(storedResult, malformed);
    result = RESULT_FACTORIES[resultFields.oneOf('status', STATUSES)](resultFields);
  }
  const resolvedAt = fields.timeOrNull('resolvedAt');
  if ((result === null) !== (resolvedAt === null)) throw malformed('a verdict without its resolution time, or the reverse');
  let request: VerificationRequest;
  try {
    request = new VerificationRequest(fields.textOrNull('subject'), policy, fields.object('payload'), fields.textOrNull('requestedBy'), id);
  } catch (error) {
    throw malformed('an invalid request', error);
  }
  const forgetAt = fields.timeOrNull('forgetAt');
  return Object.freeze({
    value: Object.freeze({
      id,
      request,
      createdAt: fields.time('createdAt'),
      expiresAt: fields.timeOrNull('expiresAt'),
      requiredApprovals: fields.count('requiredApprovals'),
      approvals,
      result,
      resolvedAt,
    }),
    forgetAt: forgetAt?.getTime() ?? null,
  });
}
