import {
  ApprovalPolicy,
  ApprovalVerdict,
  MilpaError,
  VerificationContext,
  VerificationRequest,
  VerificationStatus,
  mutabilityOf,
  type ApprovalGate,
  type ApprovalRequest,
  type ApprovalResolution,
  type PendingApproval,
} from '@milpa/core';
import { clipText } from '@milpa/core/kit';
import { VerificationTool } from '../tool/verification-tool.js';
import type { HumanVerifier } from '../verifier/human-verifier.js';

/** Options of {@link verifierApprovalGate}. */
export interface VerifierApprovalGateOptions {
  /**
   * How many people must approve: a policy for every call, or a function of the call (e.g. `dual`
   * for deletes, `single` otherwise). Default `single`. `auto` lets the call run without asking.
   */
  readonly policy?: ApprovalPolicy | ((request: ApprovalRequest) => ApprovalPolicy);
  /** The text the caller reads while the call waits; default names the tool and the policy. */
  readonly message?: (request: ApprovalRequest, policy: ApprovalPolicy) => string;
}

/** The tools people answer held calls with: never held themselves. */
const ANSWERING_TOOLS: ReadonlySet<string> = new Set([VerificationTool.REQUEST_NAME, VerificationTool.RESOLVE_NAME]);

/** The subject under which the gate opens the verification request of a held call. */
function subjectOf(toolName: string): string {
  return `approval:${toolName}`;
}

function policyOf(options: VerifierApprovalGateOptions, request: ApprovalRequest): ApprovalPolicy {
  const policy = typeof options.policy === 'function' ? options.policy(request) : (options.policy ?? 'single');
  if (!ApprovalPolicy.isApprovalPolicy(policy)) {
    throw new MilpaError(`verifierApprovalGate policy must be one of ${ApprovalPolicy.values.join(', ')}, got ${String(policy)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return policy;
}

/** The most characters of a tool's description a held call's payload keeps. */
const MAX_DESCRIPTION_CHARS = 2_000;

/**
 * What an approver needs to decide, kept in the payload so a page in another process, without the
 * registry, still shows it: the tool's description and hints, the resolved target, the agent's
 * stated reason (untrusted text, already cut by the registry).
 */
function decisionFacts(request: ApprovalRequest): Record<string, unknown> {
  const definition = request.definition;
  const mutability = mutabilityOf(definition);
  const target = request.target ?? null;
  return {
    description: typeof definition?.description === 'string' ? clipText(definition.description, MAX_DESCRIPTION_CHARS) : null,
    // As MCP tool annotations put it: a tool that is not read-only may be destructive.
    hints: { mutating: request.mutating, destructive: mutability !== 'read_only', mutability },
    target: target === null ? null : { kind: target.kind, id: target.id },
    reason: typeof request.reason === 'string' ? request.reason : null,
  };
}

function defaultMessage(request: ApprovalRequest, policy: ApprovalPolicy): string {
  const who =
    policy === 'single'
      ? 'someone other than the caller'
      : policy === 'dual'
        ? 'two people other than the caller'
        : 'a quorum of people other than the caller';
  return `Call to '${request.toolName}' waits for approval by ${who}.`;
}

/**
 * An approval gate that asks people through a {@link HumanVerifier}: every call it is asked about
 * is opened as a verification request (id = the call's `approval_id`, subject
 * `approval:<tool>`, requester = the calling principal, payload = tool, redacted arguments,
 * channel, run and request id, and what an approver needs to decide: the tool's `description`, its
 * `hints` (`mutating`, `destructive`, `mutability`), the resolved `target` (`{ kind, id }` or null)
 * and the agent's stated `reason` (or null) — untrusted text, to be shown as plain text) and suspended. Approvers grant or reject it with
 * `resolve_verification` (or `verifier.grant()` / `verifier.reject()`), under the verifier's rules:
 * the requester cannot approve its own call, `dual` and `quorum` need distinct approvers, a request
 * is decided once. A grant may replace input fields (`changes`); the registry validates the
 * replaced arguments again before the call runs. The held call expires with the request when the
 * verifier has a TTL.
 *
 * When the requester resumes, the gate reads the request: pending while undecided, granted once
 * the policy is met (with the changes the final grant approved), rejected on a reject, and
 * rejected as well when the request is gone, expired undecided, or is not the one this gate opened.
 *
 * The gate never holds `request_verification` or `resolve_verification`: they are how people
 * answer held calls (and they run the verifier's own rules), so holding them for approval would
 * leave every approval waiting on another. The gate can therefore be installed for the whole
 * registry.
 *
 * @example
 * const verifier = new HumanVerifier({ ttlMs: 30 * 60_000 });
 * const registry = new ToolRegistry({ approvalGate: verifierApprovalGate(verifier, { policy: 'single' }) });
 * new VerificationTool(verifier).register(registry);
 */
export function verifierApprovalGate(verifier: HumanVerifier, options: VerifierApprovalGateOptions = {}): ApprovalGate {
  if (options.policy !== undefined && typeof options.policy !== 'function' && !ApprovalPolicy.isApprovalPolicy(options.policy)) {
    throw new MilpaError(`verifierApprovalGate policy must be one of ${ApprovalPolicy.values.join(', ')}, got ${String(options.policy)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return {
    async check(request: ApprovalRequest): Promise<ApprovalVerdict> {
      if (ANSWERING_TOOLS.has(request.toolName)) return ApprovalVerdict.allow();
      const policy = policyOf(options, request);
      const payload = {
        tool: request.toolName,
        arguments: request.redactedArguments,
        channel: request.channel,
        run_id: request.runId,
        request_id: request.requestId,
        ...decisionFacts(request),
      };
      const opened = new VerificationRequest(subjectOf(request.toolName), policy, payload, request.principal, request.approvalId);
      const verdict = await verifier.verify(opened, new VerificationContext(request.principal));
      if (verdict.isSatisfied()) return ApprovalVerdict.allow();
      const record = await verifier.store.get(request.approvalId);
      const message = options.message?.(request, policy) ?? defaultMessage(request, policy);
      return ApprovalVerdict.suspend({ ...(record?.expiresAt ? { expiresAt: record.expiresAt } : {}), message });
    },

    async getResolution(approval: PendingApproval): Promise<ApprovalResolution> {
      const record = await verifier.store.get(approval.approvalId);
      if (record === null)
        return { status: 'rejected', reason: 'the approval request is no longer known (expired or removed)', rejectedBy: null };
      if (record.request.subject !== subjectOf(approval.toolName) || record.request.requestedBy !== approval.principal) {
        return { status: 'rejected', reason: 'the approval request does not belong to this call', rejectedBy: null };
      }
      const result = record.result;
      if (result === null) {
        if (record.expiresAt !== null && record.expiresAt.getTime() < Date.now()) {
          return { status: 'rejected', reason: 'nobody approved it before it expired', rejectedBy: null };
        }
        return { status: 'pending' };
      }
      if (result.status === VerificationStatus.PASSED) {
        const approvals = record.approvals;
        return { status: 'granted', approvedBy: approvals.map((grant) => grant.principal), changes: approvals.at(-1)?.changes ?? null };
      }
      if (result.status === VerificationStatus.FAILED)
        return { status: 'rejected', reason: result.reason ?? 'rejected', rejectedBy: result.principal };
      return {
        status: 'rejected',
        reason: `the approval request ended as '${result.status}', which is not an approval`,
        rejectedBy: result.principal,
      };
    },
  };
}
