import { invocationHistoryStoreContract } from '@milpa/core/testing';
import { describe, it } from 'vitest';
import { InMemoryInvocationHistoryStore } from './in-memory-invocation-history-store.js';

describe('InMemoryInvocationHistoryStore', () => {
  describe('the InvocationHistoryStore contract', () => {
    for (const contractCase of invocationHistoryStoreContract(() => new InMemoryInvocationHistoryStore()))
      it(contractCase.name, contractCase.run);
  });
});
