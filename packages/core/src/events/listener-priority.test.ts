import { describe, expect, it } from 'vitest';
import { ListenerPriority } from './listener-priority.js';

describe('ListenerPriority', () => {
  it('orders the conventional priorities from highest to lowest around NORMAL 0', () => {
    const values = [
      ListenerPriority.CRITICAL,
      ListenerPriority.HIGHEST,
      ListenerPriority.HIGH,
      ListenerPriority.NORMAL,
      ListenerPriority.LOW,
      ListenerPriority.LOWEST,
    ];

    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(ListenerPriority.NORMAL).toBe(0);
    expect(Object.isFrozen(ListenerPriority)).toBe(true);
  });
});
