// @milpa/tool-runtime: the Milpa engine. One governed pipeline for every tool call:
// resolve → clamp → validate → authorize → rate-limit → plan-mode → confirm → intercept → execute → audit.

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
export { Redactor, REDACTED, DEFAULT_SENSITIVE_FIELDS } from './audit/redactor.js';
export type { AuditOutcome, ToolAuditRecord } from './audit/tool-audit-record.js';
export { ToolAuditLogger, type ToolAuditLoggerOptions } from './audit/tool-audit-logger.js';

// --- presentation: rendering, token budgets, inspection ---
export { RendererRegistry } from './rendering/renderer-registry.js';
export { DefaultRenderer } from './rendering/default-renderer.js';
export { CliRenderer, type CliRendererOptions } from './rendering/cli-renderer.js';
export { MODEL_LIMITS, DEFAULT_MODEL_LIMIT, RECOMMENDED_TOOL_BUDGET_PERCENT } from './budget/model-limits.js';
export {
  TokenEstimator,
  type ModelLimitOptions,
  type ModelLimitResolution,
  type ModelLimitSource,
  type TokenEstimatorOptions,
  type ToolBudgetCheck,
  type ToolBudgetSelection,
  type ToolsTokenEstimate,
} from './budget/token-estimator.js';
export {
  OPENAI_STYLE_PROVIDERS,
  ProviderToolShapes,
  resolveProviderShape,
  toProviderTool,
  type AnthropicTool,
  type McpTool,
  type McpToolAnnotations,
  type OpenAiStyleProvider,
  type OpenAiTool,
  type OpenAiToolFunction,
  type ProviderName,
  type ProviderTool,
  type ProviderToolFor,
  type ProviderToolOptions,
  type ProviderToolShape,
  type ProviderToolSource,
} from './routing/provider-shapes.js';
export { InvocationStepKind, isHostStepKind, type HostStepKind } from './inspection/invocation-step-kind.js';
export { InvocationStepRole } from './inspection/invocation-step-role.js';
export { StepPresence } from './inspection/step-presence.js';
export { InvocationStep, type InvocationStepInit, type InvocationStepJson } from './inspection/invocation-step.js';
export { RegistryWiring, type RateCosts, type PipelineWiring } from './inspection/registry-wiring.js';
export {
  InvocationPlan,
  type InvocationPlanContext,
  type InvocationPlanInit,
  type InvocationPlanJson,
  type InvocationPlanWiring,
  type WiringState,
} from './inspection/invocation-plan.js';
export type { InspectablePolicy } from './inspection/inspectable-policy.js';
export { InvocationPlanBuilder } from './inspection/invocation-plan-builder.js';

// --- routing: which tools a turn sees ---
export {
  resolveToolProfile,
  profileMaxTools,
  profileTokenBudget,
  profileDescriptionStyle,
  type ToolProfile,
} from './routing/tool-profile.js';
export {
  toolBudgetForModel,
  resolveToolBudget,
  UNLIMITED,
  DEFAULT_MODEL_TOOL_BUDGET,
  MODEL_TOOL_BUDGETS,
  type ToolBudgetInput,
} from './routing/model-tool-budget.js';
export {
  ToolRouter,
  ROUTING_SIGNAL_WEIGHTS,
  type RoutableTool,
  type ToolRouteOptions,
  type ToolSelection,
} from './routing/tool-router.js';
export { fitTokenBudget, type TokenBudgetFit, type TokenBudgetRequest, type TokenBudgetTool } from './routing/fit-token-budget.js';

// --- registry and pipeline ---
export { ToolRegistry } from './registry/tool-registry.js';
export type {
  RateLimitSettings,
  StartRunOptions,
  ToolListing,
  ToolRegistryOptions,
  ToolsWithinBudget,
} from './registry/tool-registry-options.js';
export type { ToolsForOptions, ToolsForResult } from './registry/turn-tools.js';
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
