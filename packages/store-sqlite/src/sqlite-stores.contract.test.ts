import {
  approvalSettlementContract,
  approvalStoreContract,
  confirmationStoreContract,
  idempotencyStoreContract,
  invocationHistoryStoreContract,
  rateLimiterContract,
  verificationStoreContract,
  type StoreContractHarness,
} from '@milpa/core/testing';
import { afterAll, describe, it } from 'vitest';
import { temporaryDirectory } from '../test/temporary-database.js';
import { SqliteStores, type SqliteStoresOptions } from './sqlite-stores.js';

const files = temporaryDirectory();
afterAll(() => files.remove());

let opened = 0;
const clock = { now: Date.now() };

/** A harness whose every store lives in its own new file, on a clock the suite advances. */
function harness<Store, Settings>(
  pick: (stores: SqliteStores) => Store,
  options: (settings: Settings) => SqliteStoresOptions,
): StoreContractHarness<Store, Settings> {
  const owners = new Map<Store, SqliteStores>();
  return {
    create: (settings) => {
      opened += 1;
      const stores = SqliteStores.open(files.path(`contract-${String(opened)}.db`), {
        ...options(settings),
        now: () => clock.now,
        sweepIntervalMs: 0,
      });
      const store = pick(stores);
      owners.set(store, stores);
      return store;
    },
    dispose: (store) => owners.get(store)?.close(),
    advanceTime: (milliseconds) => {
      clock.now += milliseconds;
    },
  };
}

describe('SqliteStores', () => {
  describe('confirmation: the ConfirmationStore contract', () => {
    for (const contractCase of confirmationStoreContract(
      harness(
        (stores) => stores.confirmation,
        ({ ttlSeconds }) => ({ confirmationTtlSeconds: ttlSeconds }),
      ),
    )) {
      it(contractCase.name, contractCase.run);
    }
  });

  describe('rateLimiter: the RateLimiter contract', () => {
    for (const contractCase of rateLimiterContract(
      harness(
        (stores) => stores.rateLimiter,
        () => ({}),
      ),
    ))
      it(contractCase.name, contractCase.run);
  });

  describe('verification: the VerificationStore contract', () => {
    for (const contractCase of verificationStoreContract(
      harness(
        (stores) => stores.verification,
        () => ({}),
      ),
    ))
      it(contractCase.name, contractCase.run);
  });

  describe('approval: the ApprovalStore contract', () => {
    for (const contractCase of approvalStoreContract(
      harness(
        (stores) => stores.approval,
        () => ({}),
      ),
    ))
      it(contractCase.name, contractCase.run);
  });

  describe('approval: the settle contract', () => {
    for (const contractCase of approvalSettlementContract(
      harness(
        (stores) => stores.approval,
        () => ({}),
      ),
    ))
      it(contractCase.name, contractCase.run);
  });

  describe('idempotency: the IdempotencyStore contract', () => {
    for (const contractCase of idempotencyStoreContract(
      harness(
        (stores) => stores.idempotency,
        () => ({}),
      ),
    ))
      it(contractCase.name, contractCase.run);
  });

  describe('history: the InvocationHistoryStore contract', () => {
    for (const contractCase of invocationHistoryStoreContract(
      harness(
        (stores) => stores.history,
        () => ({}),
      ),
    ))
      it(contractCase.name, contractCase.run);
  });
});
