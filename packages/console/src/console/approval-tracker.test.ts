import type { VerificationStore } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ApprovalTracker } from './approval-tracker.js';

/** A store that knows no record and remembers which ids it was asked for. */
function emptyStore(): { store: VerificationStore; asked: string[] } {
  const asked: string[] = [];
  const store = { get: (id: string) => (asked.push(id), null) } as unknown as VerificationStore;
  return { store, asked };
}

describe('ApprovalTracker', () => {
  describe('loadItems', () => {
    it('reads the tracked ids and the listed ones, and forgets those the store no longer has', async () => {
      const { store, asked } = emptyStore();
      const tracker = new ApprovalTracker(store, () => ['listed'], 10);
      tracker.track('tracked');
      expect(await tracker.loadItems()).toEqual([]);
      expect(asked.sort()).toEqual(['listed', 'tracked']);
      asked.length = 0;
      await new ApprovalTracker(store, undefined, 10).loadItems();
      expect(asked).toEqual([]);
    });
  });

  describe('track', () => {
    it('forgets the oldest id when more than maxTracked are tracked', async () => {
      const { store, asked } = emptyStore();
      const tracker = new ApprovalTracker(store, undefined, 2);
      for (const id of ['a', 'b', 'c', '', 'c']) tracker.track(id);
      await tracker.loadItems();
      expect(asked).toEqual(['b', 'c']);
    });
  });
});
