// @milpa/verification: human (or agent) verification for Milpa.
// HumanVerifier keeps pending requests in a store and enforces their approval policy; VerificationTool exposes it as two tools.

export { HumanVerifier, type HumanVerifierGrantOptions, type HumanVerifierOptions } from './verifier/human-verifier.js';
export { verifierApprovalGate, type VerifierApprovalGateOptions } from './gate/verifier-approval-gate.js';
export { VerificationError, type VerificationErrorKind, type VerificationErrorOptions } from './errors/verification-error.js';
export { InMemoryVerificationStore, type InMemoryVerificationStoreOptions } from './store/in-memory-verification-store.js';
export { applyVerificationDecision } from '@milpa/core';
export {
  VerificationTool,
  type VerificationRequestData,
  type VerificationToolErrorData,
  type VerificationToolOptions,
} from './tool/verification-tool.js';
