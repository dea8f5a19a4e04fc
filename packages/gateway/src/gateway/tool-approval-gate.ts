import { ApprovalVerdict, type ApprovalGate, type ApprovalRequest, type ApprovalResolution, type PendingApproval } from '@milpa/core';

/**
 * One registry-wide approval gate that asks, per tool, the gate its policy names: `gateOf(tool)`
 * answers the gate, or null for a tool that needs no approval (allowed). Tools appear while the
 * gateway runs, so the choice is made per call rather than fixed when the registry is built.
 *
 * @example
 * new ToolRegistry({ approvalGate: new ToolApprovalGate((tool) => (tool === 'files_delete' ? terminalApprovalGate() : null)) });
 */
export class ToolApprovalGate implements ApprovalGate {
  readonly #gateOf: (tool: string) => ApprovalGate | null;

  constructor(gateOf: (tool: string) => ApprovalGate | null) {
    this.#gateOf = gateOf;
  }

  /** The verdict of the tool's gate; allowed when the tool names none. */
  check(request: ApprovalRequest): ApprovalVerdict | PromiseLike<ApprovalVerdict> {
    const gate = this.#gateOf(request.toolName);
    return gate === null ? ApprovalVerdict.allow() : gate.check(request);
  }

  /** The decision on a held call, from the gate of the tool it was held for (pending when that gate cannot say). */
  getResolution(approval: PendingApproval): ApprovalResolution | PromiseLike<ApprovalResolution> {
    const gate = this.#gateOf(approval.toolName);
    return gate?.getResolution?.(approval) ?? { status: 'pending' };
  }
}
