import { MilpaError } from '@milpa/core';
import type { ApprovalItem } from '../console/approval-item.js';
import {
  toApprovalNotification,
  type ApprovalNotification,
  type ApprovalNotificationKind,
  type ApprovalNotifier,
} from './approval-notification.js';

/** Called with what went wrong while notifying (a notifier that threw, a full queue, a store read). */
export type NotifyErrorHandler = (error: unknown, notification: ApprovalNotification | null) => void;

/** What {@link ApprovalNotifications} works with. */
export interface ApprovalNotificationsSettings {
  /** The host's notifier. */
  readonly notify: ApprovalNotifier;
  /** Where failures go; without it they are dropped. */
  readonly onNotifyError?: NotifyErrorHandler | undefined;
  /** The console's public address ending in `/`, or null for no links. */
  readonly publicUrl: string | null;
  /** Reads the approval as it stands now, or null when it is not a held call's approval. */
  readonly loadItem: (id: string) => Promise<ApprovalItem | null>;
  /** Notifications waiting at most (further ones are dropped and reported); default 100. */
  readonly maxQueued?: number;
}

/** The verification events that become notifications, and the kind each becomes. */
const KINDS: Readonly<Record<string, ApprovalNotificationKind>> = Object.freeze({
  'verification.requested': 'opened',
  'verification.approval_recorded': 'approval_recorded',
  'verification.granted': 'granted',
  'verification.rejected': 'rejected',
});

/**
 * Turns `verification.*` events into calls of the host's notifier, off the decision's path: an
 * event only starts reading the item and queues the notification, so a slow or failing notifier
 * never delays or fails a grant. Notifications are delivered one at a time, in event order; at
 * most `maxQueued` wait, and one more is dropped (reported as `NOTIFICATION_DROPPED`).
 */
export class ApprovalNotifications {
  readonly #settings: ApprovalNotificationsSettings;
  readonly #maxQueued: number;
  readonly #queue: (() => Promise<void>)[] = [];
  #running = false;
  #closed = false;

  /** Notifications sent with `settings`. */
  constructor(settings: ApprovalNotificationsSettings) {
    this.#settings = settings;
    this.#maxQueued = settings.maxQueued ?? 100;
  }

  /** Queues the notification for the event `name` about request `id` (ignored for other events). */
  onEvent(name: string, id: string | null): void {
    const kind = KINDS[name];
    if (kind === undefined || id === null || this.#closed) return;
    // Read the item now, so the notification shows it as the event left it, not as it is later.
    const loading = this.#settings.loadItem(id);
    loading.catch(() => undefined);
    if (this.#queue.length >= this.#maxQueued) {
      this.#report(
        new MilpaError(`The ${kind} notification of approval '${id}' was dropped: ${this.#maxQueued} notifications are waiting already.`, {
          code: 'NOTIFICATION_DROPPED',
        }),
        null,
      );
      return;
    }
    this.#queue.push(async () => {
      let notification: ApprovalNotification | null = null;
      try {
        const item = await loading;
        if (item === null) return;
        notification = toApprovalNotification(kind, item, this.#settings.publicUrl);
        await this.#settings.notify(notification);
      } catch (error) {
        this.#report(error, notification);
      }
    });
    if (!this.#running) void this.#drain();
  }

  /** Stops taking events; what is queued is still delivered. */
  close(): void {
    this.#closed = true;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) await next();
    } finally {
      this.#running = false;
    }
  }

  #report(error: unknown, notification: ApprovalNotification | null): void {
    try {
      this.#settings.onNotifyError?.(error, notification);
    } catch {
      // The error handler failing must not reach the decision either.
    }
  }
}
