import { describe, expect, it } from 'vitest';
import { ToolEvents, VerificationEvents } from './event-names.js';

describe('ToolEvents', () => {
  it('names the three tool events with their dotted names', () => {
    expect(ToolEvents).toEqual({ EXECUTING: 'tool.executing', EXECUTED: 'tool.executed', FAILED: 'tool.failed' });
    expect(Object.isFrozen(ToolEvents)).toBe(true);
  });
});

describe('VerificationEvents', () => {
  it('names the three verification events with their dotted names', () => {
    expect(VerificationEvents).toEqual({
      REQUESTED: 'verification.requested',
      GRANTED: 'verification.granted',
      REJECTED: 'verification.rejected',
    });
    expect(Object.isFrozen(VerificationEvents)).toBe(true);
  });
});
