import { confirmationStoreContract } from '@milpa/core/testing';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { ConfirmationTokenStore } from './confirmation-token-store.js';

describe('ConfirmationTokenStore', () => {
  // The store reads Date.now(); a fake Date lets the expiry cases pass time without waiting.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('the ConfirmationStore contract', () => {
    const cases = confirmationStoreContract({
      create: ({ ttlSeconds }) => new ConfirmationTokenStore({ ttlSeconds }),
      advanceTime: (milliseconds) => {
        vi.setSystemTime(Date.now() + milliseconds);
      },
    });
    for (const contractCase of cases) it(contractCase.name, contractCase.run);
  });
});
