import { describe, expect, it, vi } from 'vitest';
import type { ApprovalItem } from '../console/approval-item.js';
import type { ApprovalNotification } from './approval-notification.js';
import { ApprovalNotifications } from './approval-notifications.js';

function item(id: string): ApprovalItem {
  return {
    id,
    tool: 'delete_note',
    requester: 'agent:a',
    channel: 'mcp',
    runId: null,
    requestId: null,
    arguments: { id: 'secret-argument' },
    subject: 'approval:delete_note',
    policy: 'single',
    required: 1,
    approvals: [],
    changes: null,
    createdAt: new Date(0),
    expiresAt: null,
    state: 'pending',
    decidedBy: null,
    reason: null,
    resolvedAt: null,
  };
}

describe('ApprovalNotifications', () => {
  describe('onEvent', () => {
    it('delivers one at a time in event order, and ignores other events and ids', async () => {
      const delivered: string[] = [];
      let release: () => void = () => undefined;
      const notifications = new ApprovalNotifications({
        notify: async (notification) => {
          delivered.push(`${notification.kind}:${notification.approvalId}`);
          if (delivered.length === 1) await new Promise<void>((resolve) => (release = resolve));
        },
        publicUrl: null,
        loadItem: async (id) => item(id),
      });
      notifications.onEvent('verification.requested', 'a');
      notifications.onEvent('verification.granted', 'a');
      notifications.onEvent('tool.executed', 'a');
      notifications.onEvent('verification.rejected', null);
      await vi.waitFor(() => expect(delivered).toEqual(['opened:a']));
      release();
      await vi.waitFor(() => expect(delivered).toEqual(['opened:a', 'granted:a']));
    });

    it('drops what does not fit in the queue and reports NOTIFICATION_DROPPED', async () => {
      const errors: unknown[] = [];
      const notifications = new ApprovalNotifications({
        notify: () => new Promise<void>(() => undefined),
        onNotifyError: (error) => errors.push(error),
        publicUrl: null,
        loadItem: async (id) => item(id),
        maxQueued: 2,
      });
      for (const id of ['a', 'b', 'c', 'd']) notifications.onEvent('verification.requested', id);
      // 'a' is being delivered (and never settles), 'b' and 'c' wait, 'd' does not fit.
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 'NOTIFICATION_DROPPED' });
    });

    it('reports a store that fails to read the item, and notifies nothing for a non-approval', async () => {
      const errors: unknown[] = [];
      const notify = vi.fn();
      const notifications = new ApprovalNotifications({
        notify,
        onNotifyError: (error) => errors.push(error),
        publicUrl: 'https://ops.example.com/',
        loadItem: async (id) => {
          if (id === 'broken') throw new Error('store down');
          return null;
        },
      });
      notifications.onEvent('verification.requested', 'broken');
      notifications.onEvent('verification.requested', 'not-an-approval');
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      expect(notify).not.toHaveBeenCalled();
    });

    it('takes no events after close', async () => {
      const received: ApprovalNotification[] = [];
      const notifications = new ApprovalNotifications({
        notify: (notification) => void received.push(notification),
        publicUrl: null,
        loadItem: async (id) => item(id),
      });
      notifications.close();
      notifications.onEvent('verification.requested', 'a');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received).toEqual([]);
    });
  });
});
