import { invocationHistoryStoreContract } from '@milpa/core/testing';
import { describe, it } from 'vitest';
import { InMemoryInvocationHistoryStore } from './in-memory-invocation-history-store.js';

describe('InMemoryInvocationHistoryStore', () => {
  describe('the InvocationHistoryStore contract', () => {
    let clock = Date.now();
    const cases = invocationHistoryStoreContract({
      create: () => new InMemoryInvocationHistoryStore({ now: () => clock }),
      advanceTime: (milliseconds) => {
        clock += milliseconds;
      },
    });
    for (const contractCase of cases) it(contractCase.name, contractCase.run);
  });
});
