import {
  checkApprovalClaim,
  isMutatingCall,
  type ApprovalClaim,
  type ApprovalRedemption,
  type ApprovalRefusal,
  type ApprovalResolution,
  type PendingApproval,
  type ToolArgs,
} from '@milpa/core';
import { digestArguments } from '../approval/digest-arguments.js';
import { formatExpiresAt } from '../confirmation/format-expires-at.js';
import { approvalFailed, askApproval, denyApproval, invalidApproval, pendingApproval } from './approval-outcomes.js';
import { presentedApprovalId } from './control-values.js';
import { freezeArgs } from './freeze-args.js';
import { isPlainArgs } from './settle.js';
import type { STOP, StageVerdict, ValidatedCall } from './stage.js';

/** The shape of the ids the approve stage issues (`generateRandomId()`): anything else was never issued. */
const APPROVAL_ID = /^[0-9a-f]{32}$/;

function refusalMessage(call: ValidatedCall, refusal: ApprovalRefusal, approval: PendingApproval | null): string {
  const tool = call.toolName;
  switch (refusal) {
    case 'not_found':
      return `Unknown approval_id: no call is held under it. Call '${tool}' without approval_id to ask for approval.`;
    case 'tool_mismatch':
      return `This approval_id holds a call to another tool, not '${tool}'; nothing ran.`;
    case 'principal_mismatch':
      return 'This approval_id was issued to another principal: only the principal that asked may resume the call; nothing ran.';
    case 'channel_mismatch':
      return 'This approval_id was issued on another channel: resume the call on the channel that asked; nothing ran.';
    case 'run_mismatch':
      return 'This approval_id belongs to another run: resume the call in the run that asked; nothing ran.';
    case 'used':
      return `This approval_id was already used: an approved call runs once. Call '${tool}' without approval_id to ask again.`;
    case 'expired':
      return (
        `This approval_id expired at ${approval === null ? 'its deadline' : formatExpiresAt(approval.expiresAt)}. Call ` +
        `'${tool}' without approval_id to ask again.`
      );
  }
}

function refuse(call: ValidatedCall, refusal: ApprovalRefusal, approval: PendingApproval | null): typeof STOP {
  return invalidApproval(call, refusal, refusalMessage(call, refusal, approval));
}

function isDate(value: unknown): value is Date {
  return value instanceof Date && Number.isFinite(value.getTime());
}

/** A store's answer as a held call; a shared store deserializes, so every field is checked. */
function isHeldCall(value: unknown): value is PendingApproval {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<PendingApproval>;
  return (
    typeof record.approvalId === 'string' &&
    typeof record.toolName === 'string' &&
    isPlainArgs(record.arguments) &&
    typeof record.argumentsDigest === 'string' &&
    (record.principal === null || typeof record.principal === 'string') &&
    typeof record.channel === 'string' &&
    (record.runId === null || typeof record.runId === 'string') &&
    isDate(record.expiresAt) &&
    (record.redeemedAt === null || isDate(record.redeemedAt))
  );
}

function isResolution(value: unknown): value is ApprovalResolution {
  if (typeof value !== 'object' || value === null) return false;
  const { status } = value as { status?: unknown };
  if (status === 'pending') return true;
  if (status === 'rejected') return typeof (value as { reason?: unknown }).reason === 'string';
  if (status !== 'granted') return false;
  const { changes, approvedBy } = value as { changes?: unknown; approvedBy?: unknown };
  return (changes === null || changes === undefined || isPlainArgs(changes)) && Array.isArray(approvedBy);
}

function claimOf(call: ValidatedCall): ApprovalClaim {
  const context = call.context;
  return {
    toolName: call.toolName,
    principal: context.principal,
    channel: context.channel,
    runId: context.runId,
    at: new Date(Date.now()),
  };
}

/** The held arguments with an approver's replacements, validated again; STOP when they fail. */
function approvedArguments(
  call: ValidatedCall,
  approval: PendingApproval,
  changes: Readonly<Record<string, unknown>> | null | undefined,
): ToolArgs | typeof STOP {
  if (changes === null || changes === undefined || Object.keys(changes).length === 0) return approval.arguments;
  const entry = call.entry;
  const schema = entry.definition.inputSchema;
  const declared = isPlainArgs(schema['properties']) ? schema['properties'] : {};
  const undeclared = Object.keys(changes).filter((field) => !Object.hasOwn(declared, field));
  if (undeclared.length > 0) {
    return invalidApproval(
      call,
      'changes_invalid',
      `The approver changed fields '${call.toolName}' does not declare (${undeclared.join(', ')}); nothing ran.`,
    );
  }
  const merged = { ...approval.arguments, ...changes };
  const compiled = call.services.validator.safeCompile(schema);
  if (!compiled.ok) return approvalFailed(call, 'gate', compiled.error);
  const validation = compiled.value(merged);
  if (!validation.valid) {
    return invalidApproval(
      call,
      'changes_invalid',
      `The approver's changes do not make valid arguments for '${call.toolName}': ${validation.errors.join('; ')}; nothing ran.`,
    );
  }
  return freezeArgs(merged);
}

function redeemed(call: ValidatedCall, approved: ToolArgs, redemption: unknown): StageVerdict {
  if (typeof redemption !== 'object' || redemption === null)
    return approvalFailed(call, 'store', new TypeError('the store answered a malformed redemption'));
  const answer = redemption as ApprovalRedemption;
  if (answer.status === 'refused') return refuse(call, answer.refusal, isHeldCall(answer.approval) ? answer.approval : null);
  if (answer.status !== 'redeemed' || !isHeldCall(answer.approval))
    return approvalFailed(call, 'store', new TypeError('the store answered a malformed redemption'));
  call.approval = answer.approval;
  call.args = approved;
  // The approved arguments are the ones that execute: the call stays mutating if either answer is.
  if (!call.mutating) call.mutating = isMutatingCall(call.entry.definition, approved);
  return undefined;
}

function resolved(call: ValidatedCall, approval: PendingApproval, resolution: unknown): StageVerdict {
  if (!isResolution(resolution))
    return approvalFailed(call, 'gate', new TypeError('the gate answered something that is not an approval resolution'));
  if (resolution.status === 'pending') return pendingApproval(call, approval, 'Not approved yet.');
  if (resolution.status === 'rejected') {
    const by = resolution.rejectedBy === null || resolution.rejectedBy === undefined ? '' : ` by ${resolution.rejectedBy}`;
    return denyApproval(call, `Call to '${call.toolName}' was rejected${by}: ${resolution.reason}. Nothing ran.`);
  }
  const approved = approvedArguments(call, approval, resolution.changes);
  if (typeof approved === 'symbol') return approved;
  // Bound to the arguments: the requester presents the ones it asked with (or the approved ones);
  // anything else is another call, which needs its own approval.
  const presented = digestArguments(call.args);
  if (presented !== approval.argumentsDigest && (approved === approval.arguments || presented !== digestArguments(approved))) {
    return invalidApproval(
      call,
      'arguments_changed',
      `The arguments differ from the ones held for approval under this approval_id; resume with the same arguments (an ` +
        `approver's changes apply by themselves). Nothing ran.`,
    );
  }
  return askApproval(
    call,
    'store',
    () => call.services.approvals.store.redeem(approval.approvalId, claimOf(call)),
    (redemption) => redeemed(call, approved, redemption),
  );
}

function lookedUp(call: ValidatedCall, found: unknown): StageVerdict {
  if (found === null || found === undefined) return refuse(call, 'not_found', null);
  if (!isHeldCall(found)) return approvalFailed(call, 'store', new TypeError('the store answered a malformed held call'));
  // Checked before asking the gate, so a wrong caller learns nothing of the decision; the store
  // checks the same claim again, atomically, when it redeems.
  const refusal = checkApprovalClaim(found, claimOf(call));
  if (refusal !== null) return refuse(call, refusal, found);
  const gate = call.services.approvals.gateFor(found.toolName);
  if (gate === null || typeof gate.getResolution !== 'function') {
    return denyApproval(
      call,
      `Call to '${call.toolName}' refused: no approval gate can tell whether the held call was approved. Nothing ran.`,
    );
  }
  return askApproval(
    call,
    'gate',
    () => gate.getResolution!(found),
    (resolution) => resolved(call, found, resolution),
  );
}

/**
 * Resumes a held call presented with the `approvalId` call option: looks it up, checks it is the requester's
 * (tool, principal, channel, run), unused and unexpired, asks its gate whether it was granted,
 * applies and validates an approver's changes, checks the presented arguments against the held
 * digest, then redeems it atomically. On success the call goes on with the approved arguments; the
 * rules (and authorization) run again right before it executes.
 */
export function resumeHeldCall(call: ValidatedCall): StageVerdict {
  const approvalId = presentedApprovalId(call);
  if (typeof approvalId !== 'string' || !APPROVAL_ID.test(approvalId)) return refuse(call, 'not_found', null);
  return askApproval(
    call,
    'store',
    () => call.services.approvals.store.get(approvalId),
    (found) => lookedUp(call, found),
  );
}
