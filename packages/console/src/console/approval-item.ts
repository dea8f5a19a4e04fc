import type { ApprovalPolicy, VerificationRecord } from '@milpa/core';
import { isRecord } from '@milpa/core/kit';
import { readDecisionFacts, type DecisionFacts } from './decision-facts.js';

/** The prefix of the subject `verifierApprovalGate` opens held calls under. */
export const APPROVAL_SUBJECT_PREFIX = 'approval:';

/** One held call as the console shows it, read from its verification record. */
export interface ApprovalItem {
  /** The approval id (the verification request id). */
  readonly id: string;
  /** The tool that was called. */
  readonly tool: string;
  /** The principal that asked, or null. */
  readonly requester: string | null;
  /** The channel it asked on. */
  readonly channel: string | null;
  /** The agent run it belongs to, or null. */
  readonly runId: string | null;
  /** The request id of the held call. */
  readonly requestId: string | null;
  /** The arguments with secret fields redacted, as the gate stored them. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The verification subject (`approval:<tool>`). */
  readonly subject: string;
  /** `single`, `dual`, `quorum` or `auto`. */
  readonly policy: ApprovalPolicy;
  /** Grants needed. */
  readonly required: number;
  /** Grants so far, oldest first. */
  readonly approvals: VerificationRecord['approvals'];
  /** The field replacements the latest grant approved, or null. */
  readonly changes: Readonly<Record<string, unknown>> | null;
  /** When it was opened. */
  readonly createdAt: Date;
  /** When it stops being decidable, or null. */
  readonly expiresAt: Date | null;
  /** `pending`, `expired` (pending past its deadline), `granted`, `rejected` or another final status. */
  readonly state: 'pending' | 'expired' | 'granted' | 'rejected' | 'other';
  /** Who made the final decision, or null. */
  readonly decidedBy: string | null;
  /** The final decision's reason, or null. */
  readonly reason: string | null;
  /** When it was decided, or null. */
  readonly resolvedAt: Date | null;
  /** What the gate stored for the approver to decide on: description, hints, target, the agent's reason. */
  readonly facts?: DecisionFacts;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The record as an {@link ApprovalItem}, or null when it is not a held call's approval request. */
export function toApprovalItem(record: VerificationRecord, now: number): ApprovalItem | null {
  const subject = record.request.subject;
  if (subject === null || !subject.startsWith(APPROVAL_SUBJECT_PREFIX)) return null;
  const payload = record.request.payload;
  const result = record.result;
  let state: ApprovalItem['state'];
  if (result === null) state = record.expiresAt !== null && record.expiresAt.getTime() < now ? 'expired' : 'pending';
  else if (result.status === 'passed') state = 'granted';
  else if (result.status === 'failed') state = 'rejected';
  else state = 'other';
  const latest = record.approvals.at(-1);
  return {
    id: record.id,
    tool: text(payload['tool']) ?? subject.slice(APPROVAL_SUBJECT_PREFIX.length),
    requester: record.request.requestedBy,
    channel: text(payload['channel']),
    runId: text(payload['run_id']),
    requestId: text(payload['request_id']),
    arguments: isRecord(payload['arguments']) ? payload['arguments'] : {},
    subject,
    policy: record.request.policy,
    required: record.requiredApprovals,
    approvals: record.approvals,
    changes: latest?.changes ?? null,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    state,
    decidedBy: result?.principal ?? null,
    reason: result?.reason ?? (typeof result?.metadata['reason'] === 'string' ? result.metadata['reason'] : null),
    resolvedAt: record.resolvedAt,
    facts: readDecisionFacts(payload),
  };
}
