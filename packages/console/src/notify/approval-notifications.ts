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

/** Expiry timers kept at most (one per pending approval with a deadline). */
const MAX_EXPIRY_TIMERS = 10_000;
/** The longest delay `setTimeout` takes; a later deadline is waited for in steps. */
const MAX_TIMER_MS = 2_147_000_000;

/**
 * Turns `verification.*` events into calls of the host's notifier, off the decision's path: an
 * event only starts reading the item and queues the notification, so a slow or failing notifier
 * never delays or fails a grant. Notifications are delivered one at a time, in event order; at
 * most `maxQueued` wait, and one more is dropped (reported as `NOTIFICATION_DROPPED`). An opened
 * approval with a deadline gets a timer: still undecided at its deadline, it is notified `expired`.
 */
export class ApprovalNotifications {
  readonly #settings: ApprovalNotificationsSettings;
  readonly #maxQueued: number;
  readonly #queue: (() => Promise<void>)[] = [];
  readonly #expiryTimers = new Map<string, NodeJS.Timeout>();
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
    if (kind === 'granted' || kind === 'rejected') this.#clearExpiry(id);
    this.#enqueue(kind, id);
  }

  /** Stops taking events and cancels the expiry timers; what is queued is still delivered. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#expiryTimers.values()) clearTimeout(timer);
    this.#expiryTimers.clear();
  }

  #enqueue(kind: ApprovalNotificationKind, id: string): void {
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
        if (item === null || (kind === 'expired' && item.state !== 'expired')) return;
        if (kind === 'opened' && item.state === 'pending' && item.expiresAt !== null) this.#scheduleExpiry(id, item.expiresAt.getTime());
        notification = toApprovalNotification(kind, item, this.#settings.publicUrl);
        await this.#settings.notify(notification);
      } catch (error) {
        this.#report(error, notification);
      }
    });
    if (!this.#running) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) await next();
    } finally {
      this.#running = false;
    }
  }

  #scheduleExpiry(id: string, deadline: number): void {
    if (this.#closed || (this.#expiryTimers.size >= MAX_EXPIRY_TIMERS && !this.#expiryTimers.has(id))) return;
    this.#clearExpiry(id);
    // The item counts as expired only once the deadline is behind us: fire just after it.
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, deadline - Date.now() + 5));
    const timer = setTimeout(() => {
      this.#expiryTimers.delete(id);
      if (this.#closed) return;
      if (Date.now() <= deadline) this.#scheduleExpiry(id, deadline);
      else this.#enqueue('expired', id);
    }, delay);
    timer.unref();
    this.#expiryTimers.set(id, timer);
  }

  #clearExpiry(id: string): void {
    const timer = this.#expiryTimers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.#expiryTimers.delete(id);
  }

  #report(error: unknown, notification: ApprovalNotification | null): void {
    try {
      this.#settings.onNotifyError?.(error, notification);
    } catch {
      // The error handler failing must not reach the decision either.
    }
  }
}
