import { ApprovalVerdict, ToolContext, Type, defineTool, type ApprovalGate, type ApprovalResolution } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it, vi } from 'vitest';
import { supervisePrincipals } from './supervise-principals.js';

/** A gate that holds every call and answers `resolution` when asked about one. */
function holdingGate(resolution: ApprovalResolution = { status: 'granted', approvedBy: ['user:ana'], changes: null }) {
  const check = vi.fn(() => ApprovalVerdict.suspend({ message: 'Waits for a person.' }));
  const getResolution = vi.fn(() => resolution);
  return { gate: { check, getResolution } satisfies ApprovalGate, check, getResolution };
}

function registryWith(gate: ApprovalGate) {
  const registry = new ToolRegistry({ approvalGate: gate });
  const handler = vi.fn((args: { id: number }) => ({ deleted: args.id }));
  registry.register(
    defineTool({ name: 'delete_note', description: 'Delete a note', input: Type.Object({ id: Type.Integer() }), mutating: true, handler }),
  );
  return { registry, handler };
}

const supervised = () => ToolContext.mcp('r1', 'agent:assistant', []);
const other = () => ToolContext.mcp('r2', 'agent:pruner', []);

describe('supervisePrincipals', () => {
  describe('check', () => {
    it("holds a supervised principal's call with the supervisor and lets everyone else's run when there is no other gate", async () => {
      const supervisor = holdingGate();
      const { registry, handler } = registryWith(supervisePrincipals({ principals: ['agent:assistant'], supervisor: supervisor.gate }));
      expect((await registry.call('delete_note', { id: 1 }, supervised())).getCode()).toBe('APPROVAL_PENDING');
      expect((await registry.call('delete_note', { id: 2 }, other())).success).toBe(true);
      expect(handler.mock.calls.map(([args]) => args)).toEqual([{ id: 2 }]);
      expect(supervisor.check).toHaveBeenCalledTimes(1);
    });

    it("asks the other gate about everyone else's calls", async () => {
      const supervisor = holdingGate();
      const otherwise = vi.fn(() => ApprovalVerdict.deny('Only supervised agents may delete today.'));
      const { registry, handler } = registryWith(
        supervisePrincipals({ principals: ['agent:assistant'], supervisor: supervisor.gate, otherwise: { check: otherwise } }),
      );
      const refused = await registry.call('delete_note', { id: 2 }, other());
      expect(refused.getCode()).toBe('APPROVAL_DENIED');
      expect(refused.error).toContain('Only supervised agents may delete today.');
      expect((await registry.call('delete_note', { id: 3 }, ToolContext.cli('r3'))).getCode()).toBe('APPROVAL_DENIED');
      expect(otherwise).toHaveBeenCalledTimes(2);
      expect(supervisor.check).not.toHaveBeenCalled();
      expect(handler).not.toHaveBeenCalled();
    });
  });

  describe('getResolution', () => {
    it('asks the supervisor how a held call was decided, and the resumed call runs once', async () => {
      const supervisor = holdingGate();
      const { registry, handler } = registryWith(supervisePrincipals({ principals: ['agent:assistant'], supervisor: supervisor.gate }));
      const held = await registry.call('delete_note', { id: 1 }, supervised());
      const approvalId = (held.data as { approval_id: string }).approval_id;
      expect((await registry.resume(approvalId, supervised())).success).toBe(true);
      expect(supervisor.getResolution).toHaveBeenCalledTimes(1);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('rejects a call bound to a principal whose gate cannot hold calls', async () => {
      const gate = supervisePrincipals({
        principals: ['agent:assistant'],
        supervisor: holdingGate().gate,
        otherwise: { check: () => ApprovalVerdict.allow() },
      });
      const approval = { principal: 'agent:pruner' } as Parameters<NonNullable<ApprovalGate['getResolution']>>[0];
      expect(await gate.getResolution?.(approval)).toMatchObject({ status: 'rejected', rejectedBy: null });
    });
  });
});
