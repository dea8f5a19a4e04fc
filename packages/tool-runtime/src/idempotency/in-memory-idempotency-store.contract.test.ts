import { idempotencyStoreContract } from '@milpa/core/testing';
import { describe, it } from 'vitest';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store.js';

describe('InMemoryIdempotencyStore', () => {
  describe('the IdempotencyStore contract', () => {
    for (const contractCase of idempotencyStoreContract(() => new InMemoryIdempotencyStore())) it(contractCase.name, contractCase.run);
  });
});
