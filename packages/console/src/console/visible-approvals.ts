import type { ConsoleAuthorize, ConsoleIdentity } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';
import type { ApprovalTracker } from './approval-tracker.js';
import { authorizeApprover } from './authorize-approver.js';

/**
 * The approvals an approver may see: the tracker's items that `authorize` allows them. Every page,
 * form and per-item route reads items through here, so an item someone may not see is
 * indistinguishable from one that does not exist.
 */
export class VisibleApprovals {
  readonly #tracker: ApprovalTracker;
  readonly #authorize: ConsoleAuthorize | undefined;

  /** The items of `tracker` that `authorize` allows (all of them without it). */
  constructor(tracker: ApprovalTracker, authorize: ConsoleAuthorize | undefined) {
    this.#tracker = tracker;
    this.#authorize = authorize;
  }

  /** The approval `id` when it exists and `identity` may see it, else null (the same for both). */
  async loadVisibleItem(id: string, identity: ConsoleIdentity): Promise<ApprovalItem | null> {
    const item = await this.#tracker.loadItem(id);
    if (item === null) return null;
    return (await authorizeApprover(this.#authorize, identity, item)) ? item : null;
  }

  /** Every tracked approval `identity` may see. */
  async loadVisibleItems(identity: ConsoleIdentity): Promise<ApprovalItem[]> {
    const items = await this.#tracker.loadItems();
    if (this.#authorize === undefined) return items;
    const allowed = await Promise.all(items.map((item) => authorizeApprover(this.#authorize, identity, item)));
    return items.filter((_item, index) => allowed[index]);
  }
}
