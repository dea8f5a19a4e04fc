import { describe, expect, it } from 'vitest';
import { GovernanceEvents, ToolEvents, VerificationEvents } from './event-names.js';

describe('ToolEvents', () => {
  it('names the three tool events with their dotted names', () => {
    expect(ToolEvents).toEqual({ EXECUTING: 'tool.executing', EXECUTED: 'tool.executed', FAILED: 'tool.failed' });
    expect(Object.isFrozen(ToolEvents)).toBe(true);
  });
});

describe('VerificationEvents', () => {
  it('names the four verification events with their dotted names', () => {
    expect(VerificationEvents).toEqual({
      REQUESTED: 'verification.requested',
      APPROVAL_RECORDED: 'verification.approval_recorded',
      GRANTED: 'verification.granted',
      REJECTED: 'verification.rejected',
    });
    expect(Object.isFrozen(VerificationEvents)).toBe(true);
  });
});

describe('GovernanceEvents', () => {
  it('names the two governance events apart from the tool events', () => {
    expect(GovernanceEvents).toEqual({ DENIED: 'tool.denied', INVOCATION_DENIED: 'tool.invocation_denied' });
    expect(Object.isFrozen(GovernanceEvents)).toBe(true);
  });
});
