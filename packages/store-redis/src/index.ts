// @milpa/store-redis: Milpa's stores in Redis, shared by every process and machine that uses one Redis server.
// Confirmation tokens, rate limits, verifications, calls held for approval, idempotency keys and invocation histories, each
// check-and-change atomic on the server.

export { RedisStores, type RedisStoresOptions } from './redis-stores.js';
export { RedisStoreError, type RedisStoreFailure, type RedisStoreName } from './errors/redis-store-error.js';
export type { RedisStoreClient } from './connection/redis-store-client.js';
export { RedisConfirmationStore } from './confirmation/redis-confirmation-store.js';
export { RedisRateLimiter } from './rate-limiting/redis-rate-limiter.js';
export { RedisVerificationStore } from './verification/redis-verification-store.js';
export { RedisApprovalStore } from './approval/redis-approval-store.js';
export { RedisIdempotencyStore } from './idempotency/redis-idempotency-store.js';
export { RedisInvocationHistoryStore } from './invocation/redis-invocation-history-store.js';
