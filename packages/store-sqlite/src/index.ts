// @milpa/store-sqlite: Milpa's durable stores in one SQLite file, for one machine.
// Confirmation tokens, rate limits, verifications, calls held for approval, idempotency keys and invocation histories that survive restarts
// and are shared by processes.

export { SqliteStores, type SqliteStoresOptions } from './sqlite-stores.js';
export { SqliteStoreError, type SqliteStoreFailure, type SqliteStoreName } from './errors/sqlite-store-error.js';
export { SqliteConfirmationStore } from './confirmation/sqlite-confirmation-store.js';
export { SqliteRateLimiter } from './rate-limiting/sqlite-rate-limiter.js';
export { SqliteVerificationStore } from './verification/sqlite-verification-store.js';
export { SqliteApprovalStore } from './approval/sqlite-approval-store.js';
export { SqliteIdempotencyStore } from './idempotency/sqlite-idempotency-store.js';
export { SqliteInvocationHistoryStore } from './invocation/sqlite-invocation-history-store.js';
