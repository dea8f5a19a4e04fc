// @milpa/store-postgres: Milpa's durable stores in PostgreSQL, shared by every process and machine that uses one database.
// Confirmation tokens, rate limits, verifications, calls held for approval, idempotency keys and invocation histories, each
// check-and-change one statement or one transaction on locked rows.

export { PostgresStores, type PostgresStoresOptions } from './postgres-stores.js';
export { PostgresStoreError, type PostgresStoreFailure, type PostgresStoreName } from './errors/postgres-store-error.js';
export type { PostgresQueryResult, PostgresStorePool, PostgresStorePoolClient } from './database/postgres-store-pool.js';
export { PostgresConfirmationStore } from './confirmation/postgres-confirmation-store.js';
export { PostgresRateLimiter } from './rate-limiting/postgres-rate-limiter.js';
export { PostgresVerificationStore } from './verification/postgres-verification-store.js';
export { PostgresApprovalStore } from './approval/postgres-approval-store.js';
export { PostgresIdempotencyStore } from './idempotency/postgres-idempotency-store.js';
export { PostgresInvocationHistoryStore } from './invocation/postgres-invocation-history-store.js';
