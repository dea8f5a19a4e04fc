import * as contracts from '@milpa/core/testing';
import { describe, it } from 'vitest';
import { describeWithRedis, useTestRedis } from '../test/redis-server.js';
import { RedisStores, type RedisStoresOptions } from './redis-stores.js';

const redis = useTestRedis('contract');
const clock = { now: Date.now() };
let opened = 0;

/**
 * A harness over one of the six stores: each store it creates gets a prefix of its own on the
 * file's client (so it starts empty), reads the clock the suite advances, and is closed after its
 * case (which leaves the shared client open).
 */
function harness<Store, Settings = void>(
  pick: (stores: RedisStores) => Store,
  options: (settings: Settings) => RedisStoresOptions = () => ({}),
): contracts.StoreContractHarness<Store, Settings> {
  const owners = new Map<Store, RedisStores>();
  return {
    async create(settings) {
      opened += 1;
      const stores = await RedisStores.connect({
        ...options(settings),
        client: redis.client,
        prefix: `${redis.prefix}${String(opened)}:`,
        now: () => clock.now,
      });
      owners.set(pick(stores), stores);
      return pick(stores);
    },
    dispose: (store) => owners.get(store)?.close(),
    advanceTime(milliseconds) {
      clock.now += milliseconds;
    },
  };
}

const SUITES: readonly (readonly [string, readonly contracts.StoreContractCase[]])[] = [
  [
    'confirmation: the ConfirmationStore contract',
    contracts.confirmationStoreContract(
      harness(
        (stores) => stores.confirmation,
        ({ ttlSeconds }) => ({ confirmationTtlSeconds: ttlSeconds }),
      ),
    ),
  ],
  ['rateLimiter: the RateLimiter contract', contracts.rateLimiterContract(harness((stores) => stores.rateLimiter))],
  ['verification: the VerificationStore contract', contracts.verificationStoreContract(harness((stores) => stores.verification))],
  ['approval: the ApprovalStore contract', contracts.approvalStoreContract(harness((stores) => stores.approval))],
  ['approval: the settle contract', contracts.approvalSettlementContract(harness((stores) => stores.approval))],
  ['idempotency: the IdempotencyStore contract', contracts.idempotencyStoreContract(harness((stores) => stores.idempotency))],
  ['history: the InvocationHistoryStore contract', contracts.invocationHistoryStoreContract(harness((stores) => stores.history))],
];

describeWithRedis('RedisStores', () => {
  for (const [title, cases] of SUITES) {
    describe(title, () => {
      for (const contractCase of cases) it(contractCase.name, contractCase.run);
    });
  }
});
