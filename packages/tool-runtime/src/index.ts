// @milpa/tool-runtime: the Milpa engine. One governed pipeline for every tool call:
// resolve → clamp → validate → authorize → rate-limit → plan-mode → confirm → intercept → execute → audit.

// Specialised parts live on subpaths: `/routing` (what a model is offered), `/inspection`, `/rendering`,
// `/audit` (the audit logger, its records and the redactor).

// --- policy (shared) ---
export { DEFAULT_CHANNEL_POLICIES, FAIL_CLOSED_CHANNEL_POLICY, type ChannelPolicy } from './policy/channel-policy.js';

// --- gates: validation, policy gate, rate limiting, confirmation, audit ---
export {
  SchemaValidator,
  type CompiledValidator,
  type SafeCompileResult,
  type SchemaValidatorOptions,
} from './validation/schema-validator.js';
export { ValidationResult, type ValidationIssue } from './validation/validation-result.js';
export { InvalidSchemaError } from './validation/invalid-schema-error.js';
export { AuthorizationResult } from './policy/authorization-result.js';
export { PolicyGate, type PolicyGateOptions, type PolicySubject } from './policy/policy-gate.js';
export { InMemoryRateLimiter } from './rate-limiting/in-memory-rate-limiter.js';
export { rateLimitKey } from './rate-limiting/rate-limit-key.js';
export { ConfirmationTokenStore, type ConfirmationTokenStoreOptions } from './confirmation/confirmation-token-store.js';
export { InMemoryApprovalStore, type InMemoryApprovalStoreOptions } from './approval/in-memory-approval-store.js';
export { InMemoryIdempotencyStore, type InMemoryIdempotencyStoreOptions } from './idempotency/in-memory-idempotency-store.js';
export { policyApprovalGate, type ApprovalPolicyAnswer, type PolicyApprovalGateOptions } from './approval/policy-approval-gate.js';
export {
  terminalApprovalGate,
  type TerminalApprovalGateOptions,
  type TerminalApprovalInput,
  type TerminalApprovalOutput,
} from './approval/terminal-approval-gate.js';
export { formatExpiresAt } from './confirmation/format-expires-at.js';
export { capToolResult } from './result-cap/cap-tool-result.js';

// --- registry and pipeline ---
export { ToolRegistry } from './registry/tool-registry.js';
export type { RateLimitSettings, StartRunOptions, ToolListing, ToolRegistryOptions } from './registry/tool-registry-options.js';
export type { DenyReport, UnmatchedDenyEntry } from './registry/deny-list.js';
export type { TidiedField } from './tidying/tidy-arguments.js';
export type { AuthorizeOptions } from './policy/policy-gate.js';
export {
  InMemoryInvocationHistoryStore,
  type InMemoryInvocationHistoryStoreOptions,
} from './invocation/in-memory-invocation-history-store.js';
export type { InvocationRuleSummary } from './invocation/invocation-rule-set.js';
export type { ToolCallOptions } from './pipeline/pipeline-call.js';
export type { HostStage, HostStageAnchor, HostStageAnswer, HostStageCall, HostStagePlacement } from './pipeline/host-stage.js';
export { ToolAlreadyRegisteredError } from './registry/tool-already-registered-error.js';
export { ToolScanner } from './scanner/tool-scanner.js';

// --- telemetry (OpenTelemetry API) ---
export { TELEMETRY_NAMES } from './telemetry/telemetry-names.js';
export type { ToolTelemetryOptions } from './telemetry/tool-telemetry-options.js';
