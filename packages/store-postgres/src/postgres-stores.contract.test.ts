import * as contracts from '@milpa/core/testing';
import { describe, it } from 'vitest';
import { describeWithPostgres, useTestDatabase } from '../test/postgres-server.js';
import { PostgresStores, type PostgresStoresOptions } from './postgres-stores.js';

const database = useTestDatabase('contract');
const clock = { now: Date.now() };
const TABLES = [
  'confirmation_tokens',
  'rate_limit_buckets',
  'verification_records',
  'approval_holds',
  'idempotency_keys',
  'invocation_runs',
  'invocation_observations',
  'invocation_reservations',
];

/**
 * A harness over one of the six stores. The file's cases run one at a time in one schema: each
 * store it creates starts from emptied tables (one schema per file keeps the run short), reads the
 * clock the suite advances, and is closed after its case (which leaves the file's pool open).
 */
function harness<Store, Settings = void>(
  pick: (stores: PostgresStores) => Store,
  options: (settings: Settings) => PostgresStoresOptions = () => ({}),
): contracts.StoreContractHarness<Store, Settings> {
  const owners = new Map<Store, PostgresStores>();
  return {
    async create(settings) {
      const stores = await PostgresStores.connect({
        ...options(settings),
        pool: database.pool,
        schema: database.schema,
        now: () => clock.now,
        sweepIntervalMs: 0,
      });
      // DELETE rather than TRUNCATE: the tables hold a few rows, and TRUNCATE rewrites each table's files.
      for (const table of TABLES) await database.pool.query(`DELETE FROM "${database.schema}".${table}`);
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

describeWithPostgres('PostgresStores', () => {
  for (const [title, cases] of SUITES) {
    describe(title, () => {
      for (const contractCase of cases) it(contractCase.name, contractCase.run);
    });
  }
});
