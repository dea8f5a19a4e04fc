import { describe, expect, it } from 'vitest';
import * as events from './index.js';

describe('@milpa/events', () => {
  it('exports exactly its public runtime names', () => {
    // A change here is a change to the public API: review it, and add a changeset.
    expect(Object.keys(events).sort()).toEqual(['EventDispatcher', 'EventDispatcherError']);
  });
});
