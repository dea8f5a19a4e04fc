import {
  ApprovalVerdict,
  generateRandomId,
  mutabilityOf,
  type ApprovalGate,
  type ApprovalRequest,
  type PendingApproval,
} from '@milpa/core';
import { clipText, deepFreeze } from '@milpa/core/kit';
import { digestArguments } from '../../approval/digest-arguments.js';
import { approvalFailed, askApproval, denyApproval, pendingApproval } from '../approval-outcomes.js';
import { MAX_REASON_CHARS, isResuming, presentedReason } from '../control-values.js';
import { describeStep } from '../describe-step.js';
import { resumeHeldCall } from '../resume-held-call.js';
import { describeTidiedArguments } from '../tidied-arguments.js';
import type { Stage, StageVerdict, ValidatedCall } from '../stage.js';

const CONSULTED =
  'it allows, denies (APPROVAL_DENIED) or holds the call (APPROVAL_PENDING with an approval_id and its expiry); ' +
  "a gate that throws, answers something else or outlives the caller's abort denies; " +
  'a call with approval_id resumes a held call once someone else approved it, exactly once, with the approved arguments';

function hold(call: ValidatedCall, request: ApprovalRequest, verdict: ApprovalVerdict): StageVerdict {
  const now = Date.now();
  const expiresAt = verdict.expiresAt ?? new Date(now + call.services.approvals.ttlMs);
  if (expiresAt.getTime() <= now)
    return approvalFailed(call, 'gate', new RangeError('the gate suspended the call with an expiry in the past'));
  const approval: PendingApproval = Object.freeze({
    approvalId: request.approvalId,
    toolName: request.toolName,
    arguments: request.arguments,
    argumentsDigest: digestArguments(request.arguments),
    principal: request.principal,
    channel: request.channel,
    runId: request.runId,
    requestId: request.requestId,
    createdAt: new Date(now),
    expiresAt,
    redeemedAt: null,
  });
  return askApproval(
    call,
    'store',
    () => call.services.approvals.store.open(approval),
    (opened) => {
      if (opened !== true) return approvalFailed(call, 'store', new Error('the store did not hold the call'));
      call.approval = approval;
      return pendingApproval(call, approval, verdict.message);
    },
  );
}

function decide(call: ValidatedCall, gate: ApprovalGate, request: ApprovalRequest, verdict: unknown): StageVerdict {
  if (!ApprovalVerdict.isApprovalVerdict(verdict))
    return approvalFailed(call, 'gate', new TypeError('the gate answered something that is not an ApprovalVerdict'));
  if (verdict.kind === 'allow') return undefined;
  if (verdict.kind === 'deny') return denyApproval(call, `Call to '${call.toolName}' was not approved: ${String(verdict.reason)}`);
  if (typeof gate.getResolution !== 'function') {
    return denyApproval(
      call,
      `Call to '${call.toolName}' was not approved: its approval gate cannot hold calls for a later decision, so the call cannot wait.`,
    );
  }
  return hold(call, request, verdict);
}

/** The agent's stated reason as a person may see it: the call's secrets scrubbed from it, then cut. */
function statedReason(call: ValidatedCall): string | null {
  const stated = presentedReason(call);
  if (stated === null) return null;
  return clipText(call.services.scrub(stated, call.args, call.entry.definition.name), MAX_REASON_CHARS);
}

function checkCall(call: ValidatedCall, gate: ApprovalGate): StageVerdict {
  const tool = call.entry.definition;
  const context = call.context;
  const args = call.args;
  const request: ApprovalRequest = Object.freeze({
    toolName: tool.name,
    arguments: args,
    // What a person is shown (the console renders the gate's copy of it): never the raw arguments.
    redactedArguments: deepFreeze(call.services.redactView(args, tool.name)) as Readonly<Record<string, unknown>>,
    definition: tool,
    mutating: true,
    context,
    principal: context.principal,
    channel: context.channel,
    runId: context.runId,
    requestId: context.requestId,
    approvalId: generateRandomId(),
    signal: call.options?.signal ?? null,
    tidied: describeTidiedArguments(call),
    // The rules stage ran first and named the target (null when no resolver did or none was asked).
    target: call.target,
    reason: statedReason(call),
  });
  return askApproval(
    call,
    'gate',
    () => gate.check(request),
    (verdict) => decide(call, gate, request, verdict),
  );
}

/**
 * Asks the tool's approval gate about every call that mutates for its arguments (the request lists,
 * redacted, any argument tidying changed, in `tidied`): allow lets it
 * go on, deny ends it with `APPROVAL_DENIED` (audited, and dispatched in `tool.denied`), suspend
 * holds it in the approval store bound to tool, arguments digest, principal, channel and run, and
 * returns `APPROVAL_PENDING` with the `approval_id`. A call presenting `approval_id` resumes a held
 * call instead (see `resumeHeldCall`). Every failure of the gate or the store denies the call, and
 * so does the caller's abort while either is waiting.
 */
export const approveStage: Stage = {
  name: 'approve',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'approval gate',
  // The stage races the caller's abort itself, so that a gate that hangs denies the call
  // (APPROVAL_DENIED, audited as such) rather than ending it as a generic abort.
  refusesOnAbort: false,
  run(call: ValidatedCall): StageVerdict {
    if (isResuming(call)) return resumeHeldCall(call);
    if (!call.mutating) return undefined;
    const gate = call.services.approvals.gateFor(call.entry.definition.name);
    if (gate === null) return undefined;
    return checkCall(call, gate);
  },
  describe({ tool, wiring }) {
    if (!wiring.hasApprovalGate(tool.name))
      return [describeStep('approve', 'branch', 'skipped', false, false, 'no approval gate is configured for this tool')];
    const mutability = mutabilityOf(tool);
    if (mutability === 'read_only') {
      return [
        describeStep(
          'approve',
          'branch',
          'dormant',
          false,
          false,
          'an approval gate is configured, but mutating=false: the gate is never asked',
        ),
      ];
    }
    if (mutability === 'depends_on_arguments') {
      return [
        describeStep(
          'approve',
          'branch',
          'conditional',
          true,
          false,
          `tool.mutating depends on arguments: the approval gate is asked for every call whose arguments make it mutating; ${CONSULTED}`,
        ),
      ];
    }
    return [
      describeStep('approve', 'branch', 'active', true, false, `the approval gate is asked for every call (tool.mutating); ${CONSULTED}`),
    ];
  },
};
