import { ApprovalVerdict, type ApprovalGate } from '@milpa/core';
import { APPROVAL_GRANT_KEY, redeemApprovalGrant } from './approval-grant.js';

/**
 * A Milpa approval gate whose approvals come from the OpenAI Agents run: a call that mutates runs
 * only when the person running the agent approved that very call (`state.approve(interruption)`)
 * and the tools made by `toAgentsTools` present the approval, bound to the tool call id, the
 * arguments the person saw and the caller. Every other call it is asked about — the same tool over
 * MCP, a forged or replayed approval, other arguments — is denied with `APPROVAL_DENIED`, and
 * nothing runs. It never holds calls: the run's interruption is where the call waits.
 *
 * @example
 * const registry = new ToolRegistry({ approvalGates: { delete_note: agentsApprovalGate() } });
 * const tools = await toAgentsTools(registry, context);
 */
export function agentsApprovalGate(): ApprovalGate {
  return {
    check(request) {
      const grant = (request.context.extra as Readonly<Record<PropertyKey, unknown>>)[APPROVAL_GRANT_KEY];
      const binding = {
        toolName: request.toolName,
        requestId: request.requestId,
        principal: request.principal,
        channel: request.channel,
        runId: request.runId,
      };
      if (redeemApprovalGrant(grant, binding)) return ApprovalVerdict.allow();
      // The registry words it "Call to '<tool>' was not approved: <reason>".
      return ApprovalVerdict.deny(
        'it needs the approval of the person running the agent, given in the agent run for this very call. Nothing ran.',
      );
    },
  };
}
