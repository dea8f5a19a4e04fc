import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { hasToolCall, readSdkApproval } from './read-sdk-approval.js';

const asked: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'tool-call', toolCallId: 'c1', toolName: 'delete_note', input: { id: 'n1' } },
    { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
  ],
};

function answered(approved: boolean, approvalId = 'a1', reason?: string): ModelMessage {
  return { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved, ...(reason === undefined ? {} : { reason }) }] };
}

describe('readSdkApproval', () => {
  it('reads an approval of the call, with its reason', () => {
    expect(readSdkApproval([asked, answered(true, 'a1', 'fine')], 'c1')).toEqual({ status: 'approved', reason: 'fine' });
    expect(readSdkApproval([asked, answered(true)], 'c1')).toEqual({ status: 'approved', reason: null });
  });

  it('is missing without an answer, or with an answer to another approval request', () => {
    expect(readSdkApproval([asked], 'c1')).toEqual({ status: 'missing' });
    expect(readSdkApproval([asked, answered(true, 'a2')], 'c1')).toEqual({ status: 'missing' });
    expect(readSdkApproval([asked, answered(true)], 'c2')).toEqual({ status: 'missing' });
  });

  it('lets a denial win over an approval in the same conversation', () => {
    expect(readSdkApproval([asked, answered(true), answered(false)], 'c1')).toEqual({ status: 'denied' });
    expect(readSdkApproval([asked, answered(false), answered(true)], 'c1')).toEqual({ status: 'denied' });
  });
});

describe('hasToolCall', () => {
  it('finds a tool call of an assistant message by id only', () => {
    expect(hasToolCall([asked], 'c1')).toBe(true);
    expect(hasToolCall([asked], 'c2')).toBe(false);
    expect(hasToolCall([{ role: 'user', content: 'c1' }], 'c1')).toBe(false);
  });
});
