import { verificationStoreContract } from '@milpa/core/testing';
import { describe, it } from 'vitest';
import { InMemoryVerificationStore } from './in-memory-verification-store.js';

describe('InMemoryVerificationStore', () => {
  describe('the VerificationStore contract', () => {
    for (const contractCase of verificationStoreContract(() => new InMemoryVerificationStore())) it(contractCase.name, contractCase.run);
  });
});
