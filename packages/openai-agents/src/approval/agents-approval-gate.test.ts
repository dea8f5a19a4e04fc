import { ToolContext, Type, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it, vi } from 'vitest';
import { agentsApprovalGate } from './agents-approval-gate.js';
import { APPROVAL_GRANT_KEY, issueApprovalGrant, revokeApprovalGrant, type ApprovalGrantBinding } from './approval-grant.js';

function setup() {
  const handler = vi.fn((args: { id: string }) => ({ deleted: args.id }));
  const registry = new ToolRegistry({ approvalGate: agentsApprovalGate() });
  registry.register(
    defineTool({ name: 'delete_note', description: 'Delete a note', mutating: true, input: Type.Object({ id: Type.String() }), handler }),
  );
  registry.register(
    defineTool({ name: 'archive_note', description: 'Archive a note', mutating: true, input: Type.Object({ id: Type.String() }), handler }),
  );
  const context = ToolContext.web('user:42', ['*']).with({ requestId: 'call_1', runId: 'run_1' });
  const binding: ApprovalGrantBinding = {
    toolName: 'delete_note',
    requestId: 'call_1',
    principal: 'user:42',
    channel: 'web',
    runId: 'run_1',
  };
  const withGrant = (grant: unknown, on = context) => on.with({ extra: { [APPROVAL_GRANT_KEY]: grant } as Record<string, unknown> });
  return { registry, handler, context, binding, withGrant };
}

describe('agentsApprovalGate', () => {
  describe('check', () => {
    it('lets a call with its own grant run, once', async () => {
      const { registry, handler, binding, withGrant } = setup();
      const granted = withGrant(issueApprovalGrant(binding));
      expect((await registry.call('delete_note', { id: 'n1' }, granted)).success).toBe(true);
      const again = await registry.call('delete_note', { id: 'n1' }, granted);
      expect(again.getCode()).toBe('APPROVAL_DENIED');
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('denies a mutating call that carries no grant, e.g. the same tool reached over another channel', async () => {
      const { registry, handler, context } = setup();
      const result = await registry.call('delete_note', { id: 'n1' }, context);
      expect(result.getCode()).toBe('APPROVAL_DENIED');
      expect(result.error).toBe(
        "Call to 'delete_note' was not approved: " +
          'it needs the approval of the person running the agent, given in the agent run for this very call. Nothing ran.',
      );
      expect(handler).not.toHaveBeenCalled();
    });

    it('denies a look-alike grant the adapter never issued', async () => {
      const { registry, handler, binding, withGrant } = setup();
      const result = await registry.call('delete_note', { id: 'n1' }, withGrant({ ...binding }));
      expect(result.getCode()).toBe('APPROVAL_DENIED');
      expect(handler).not.toHaveBeenCalled();
    });

    it.each([
      ['another request id', { requestId: 'call_2' }],
      ['another tool', { toolName: 'archive_note' }],
      ['another principal', { principal: 'user:99' }],
      ['another run', { runId: 'run_2' }],
    ])('denies a grant issued for %s', async (_name, change) => {
      const { registry, handler, binding, withGrant } = setup();
      const result = await registry.call('delete_note', { id: 'n1' }, withGrant(issueApprovalGrant({ ...binding, ...change })));
      expect(result.getCode()).toBe('APPROVAL_DENIED');
      expect(handler).not.toHaveBeenCalled();
    });

    it('denies a grant that was revoked before it was presented', async () => {
      const { registry, handler, binding, withGrant } = setup();
      const grant = issueApprovalGrant(binding);
      revokeApprovalGrant(grant);
      expect((await registry.call('delete_note', { id: 'n1' }, withGrant(grant))).getCode()).toBe('APPROVAL_DENIED');
      expect(handler).not.toHaveBeenCalled();
    });
  });
});
