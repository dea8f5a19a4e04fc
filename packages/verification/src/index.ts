// @milpa/verification: human (or agent) verification for Milpa.
// HumanVerifier keeps pending requests in a store and enforces their approval policy; VerificationTool exposes it as two tools.

export { HumanVerifier, type HumanVerifierOptions } from './verifier/human-verifier.js';
export { VerificationError, type VerificationErrorKind, type VerificationErrorOptions } from './errors/verification-error.js';
export { InMemoryVerificationStore, type InMemoryVerificationStoreOptions } from './store/in-memory-verification-store.js';
export { applyVerificationDecision } from './store/apply-verification-decision.js';
export {
  VerificationTool,
  type VerificationRequestData,
  type VerificationToolErrorData,
  type VerificationToolOptions,
} from './tool/verification-tool.js';
