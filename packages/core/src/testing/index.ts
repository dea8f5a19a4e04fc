// @milpa/core/testing: the contract test suites of Milpa's stores, for any test runner.
// Each suite returns named cases that a host runs against its own store; nothing here depends on a test framework.

export { StoreContractError } from './store-contract-error.js';
export type { StoreContractCase, StoreContractHarness, StoreContractSubject } from './store-contract-case.js';
export { confirmationStoreContract, type ConfirmationStoreContractSettings } from './confirmation-store-contract.js';
export { rateLimiterContract } from './rate-limiter-contract.js';
export { verificationStoreContract } from './verification-store-contract.js';
export { invocationHistoryStoreContract } from './invocation-history-store-contract.js';
export { approvalSettlementContract, approvalStoreContract } from './approval-store-contract.js';
export { idempotencyStoreContract } from './idempotency-store-contract.js';
