import { ApprovalVerdict, type ApprovalGate, type ApprovalRequest, type PendingApproval } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolApprovalGate } from './tool-approval-gate.js';

describe('ToolApprovalGate', () => {
  const denying: ApprovalGate = {
    check: () => ApprovalVerdict.deny('no'),
    getResolution: () => ({ status: 'granted', approvedBy: ['ana'], changes: null }),
  };
  const gate = new ToolApprovalGate((tool) => (tool === 'guarded' ? denying : null));

  it("asks the tool's own gate, and allows tools that name none", async () => {
    expect((await gate.check({ toolName: 'guarded' } as ApprovalRequest)).kind).toBe('deny');
    expect((await gate.check({ toolName: 'open' } as ApprovalRequest)).kind).toBe('allow');
  });

  it("takes a held call's decision from its tool's gate, pending otherwise", async () => {
    expect(await gate.getResolution({ toolName: 'guarded' } as PendingApproval)).toMatchObject({ status: 'granted' });
    expect(await gate.getResolution({ toolName: 'open' } as PendingApproval)).toEqual({ status: 'pending' });
  });
});
