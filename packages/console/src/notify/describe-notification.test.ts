import { describe, expect, it } from 'vitest';
import type { ApprovalNotification } from './approval-notification.js';
import { describeNotification } from './describe-notification.js';

function notification(overrides: Partial<ApprovalNotification>): ApprovalNotification {
  return {
    kind: 'rejected',
    approvalId: 'a1',
    tool: 'pay_invoice',
    requester: 'agent:assistant',
    policy: 'single',
    approvals: 0,
    required: 1,
    decidedBy: 'user:ana',
    reason: null,
    at: new Date(0),
    url: null,
    ...overrides,
  };
}

describe('describeNotification', () => {
  it('shows hidden and direction-changing characters in a reason as escapes, so "pay \\u202E0001$" never reads "pay $1000"', () => {
    const text = describeNotification(notification({ reason: 'pay \u202E0001$ to invoice\u200Bfdp.exe' }));
    expect(text).toBe(
      'Rejected by user:ana: `pay_invoice` requested by agent:assistant will not run: pay \\u{202E}0001$ to invoice\\u{200B}fdp.exe.',
    );
  });

  it('shows look-alike characters in the requester and the approver as escapes', () => {
    const text = describeNotification(notification({ requester: 'agent:\u0430ssistant', decidedBy: 'user:\u0430na\u202E' }));
    expect(text).toContain('requested by agent:\\u{0430}ssistant');
    expect(text).toContain('Rejected by user:\\u{0430}na\\u{202E}:');
    expect(text).not.toMatch(/[\u0430\u202E]/);
  });

  it('escapes Slack markup in a reason after showing hidden characters', () => {
    const text = describeNotification(notification({ reason: '<!channel> <https://evil.example|click> &\u2066' }));
    expect(text).toContain(': &lt;!channel&gt; &lt;https://evil.example|click&gt; &amp;\\u{2066}.');
  });
});
