// @milpa/core: the contracts of Milpa, the governed tool-execution runtime for AI agents.
// Interfaces, value objects, event classes and the declarative tool API; nothing here executes a pipeline.

export { Type } from 'typebox';
export type { Static, TObject, TSchema } from 'typebox';

export { MilpaError, type MilpaErrorOptions } from './errors/milpa-error.js';

export { ToolErrorCode, isToolErrorCode } from './result/tool-error-code.js';
export { ToolResult, type ToolResultJson, type ToolResultMeta, type Pagination } from './result/tool-result.js';
export {
  CALL_OUTCOME_KINDS,
  isWaitingForPerson,
  outcomeKindOf,
  type ApprovalPendingOutcome,
  type CallOutcome,
  type CallOutcomeKind,
  type ConfirmationRequiredOutcome,
  type ExecutedOutcome,
  type FailedOutcome,
  type PlannedOutcome,
  type RefusalName,
  type RefusedOutcome,
  type ReplayedOutcome,
} from './outcome/call-outcome.js';
export {
  IN_BAND_CONTROL_KEYS,
  readInBandControls,
  type InBandControlKey,
  type InBandControlPolicy,
  type InBandControlRefusal,
  type InBandControls,
  type InBandControlsRead,
} from './control/in-band-controls.js';
export type { GovernedCallOptions, GovernedPlan, GovernedPlanStep, GovernedToolRegistry } from './contracts/governed-tool-registry.js';
export {
  describeRefusalForModel,
  type FieldProblemForModel,
  type RefusalForModel,
} from './outcome/describe-outcome-for-model.js';
export {
  isContentBlock,
  type ContentBlock,
  type TextContentBlock,
  type ImageContentBlock,
  type AudioContentBlock,
  type EmbeddedResourceContentBlock,
  type ResourceLinkContentBlock,
} from './result/content-block.js';

export { ToolContext, type ToolContextInit, type ToolContextJson, type ToolMode } from './context/tool-context.js';
export { generateRequestId } from './context/request-id.js';
export { generateRandomId, type RandomIdFormat } from './ids/generate-random-id.js';
export { ExpiringMap, type ExpiringMapOptions } from './expiry/expiring-map.js';

export type {
  AnyToolDefinition,
  ClampRule,
  ClampSpec,
  JsonSchema,
  ToolArgs,
  ToolDefinition,
  ToolHandler,
  ToolInvocation,
  ToolRouting,
} from './tools/tool-definition.js';
export {
  defineTool,
  normalizeToolDefinition,
  DEFAULT_TOOL_TIMEOUT_MS,
  TOOL_OPTION_KEYS,
  type DefineToolOptions,
  type ToolOptions,
} from './tools/define-tool.js';
export { tool, readDeclaredTools, type ToolDecoratorCompilation, type ToolDecoratorOptions } from './tools/tool-decorator.js';
export {
  isMutatingCall,
  mutabilityOf,
  type MutabilitySubject,
  type ToolMutability,
  type ToolMutating,
} from './tools/tool-mutability.js';
export type { ToolSummary } from './tools/tool-summary.js';
export {
  unsupportedCaller,
  type CallerCapabilities,
  type CallerLogLevel,
  type ElicitationOutcome,
  type ElicitationRequest,
  type SamplingOutcome,
  type SamplingRequest,
  type ToolCaller,
} from './tools/tool-caller.js';

export { InterceptionSlot } from './events/interception-slot.js';
export {
  ToolEvents,
  VerificationEvents,
  GovernanceEvents,
  type ToolEventName,
  type VerificationEventName,
  type GovernanceEventName,
} from './events/event-names.js';
export { ListenerPriority } from './events/listener-priority.js';
export { ToolExecutingEvent } from './events/tool-executing-event.js';
export { ToolExecutedEvent } from './events/tool-executed-event.js';
export { ToolFailedEvent } from './events/tool-failed-event.js';
export { ToolDeniedEvent } from './events/tool-denied-event.js';
export { ToolInvocationDeniedEvent } from './events/tool-invocation-denied-event.js';
export { ToolDenialReason } from './events/tool-denial-reason.js';
export { VerificationRequestedEvent } from './events/verification-requested-event.js';
export { VerificationApprovalRecordedEvent } from './events/verification-approval-recorded-event.js';
export { VerificationGrantedEvent } from './events/verification-granted-event.js';
export { VerificationRejectedEvent } from './events/verification-rejected-event.js';

export { isInvocationCode, INVOCATION_CODE_MAX_LENGTH } from './invocation/invocation-code.js';
export { InvocationDecision } from './invocation/invocation-decision.js';
export {
  invocationTarget,
  isInvocationTarget,
  INVOCATION_TARGET_ID_MAX_LENGTH,
  type InvocationTarget,
} from './invocation/invocation-target.js';
export { InvocationOutcome } from './invocation/invocation-outcome.js';
export {
  InvocationHistory,
  type InFlightInvocation,
  type InvocationObservation,
  type InvocationObservationFilter,
} from './invocation/invocation-history.js';
export type { Invocation, InvocationRequest, InvocationRule, TargetResolver } from './invocation/invocation-rule.js';

export { VerificationStatus } from './verification/verification-status.js';
export { ApprovalPolicy } from './verification/approval-policy.js';
export { VerificationRequest } from './verification/verification-request.js';
export { VerificationResult, type VerificationResultJson } from './verification/verification-result.js';
export { VerificationContext } from './verification/verification-context.js';
export { applyVerificationDecision } from './verification/apply-verification-decision.js';

export { ApprovalVerdict, type ApprovalSuspendOptions, type ApprovalVerdictKind } from './approval/approval-verdict.js';
export type { ApprovalRequest } from './approval/approval-request.js';
export type { TidiedArgument, TidyAction } from './approval/tidied-argument.js';
export type { ApprovalResolution } from './approval/approval-resolution.js';
export type { ApprovalGate } from './approval/approval-gate.js';
export { checkApprovalClaim } from './approval/check-approval-claim.js';
export {
  ApprovalBinding,
  digestArguments,
  type ApprovalBindingOpening,
  type ApprovalBindingOptions,
  type ApprovalBindingRedemption,
  type ApprovalBindingRefusal,
  type ApprovalBindingScope,
  type BoundToolCall,
} from './approval/approval-binding.js';
export { completeIdempotencyRecord, decideIdempotencyBegin, mayReleaseIdempotencyRecord } from './idempotency/idempotency-rules.js';
export type { IdempotencyBegin, IdempotencyClaim, IdempotencyRecord, IdempotencyStore } from './contracts/idempotency-store.js';
export type {
  ApprovalClaim,
  ApprovalRedemption,
  ApprovalRefusal,
  ApprovalSettlement,
  ApprovalStore,
  PendingApproval,
} from './contracts/approval-store.js';

export type { EventDispatcher, EventListener, EventPayload } from './contracts/event-dispatcher.js';
export { silentLogger, type Logger, type LogContext, type LogLevel } from './contracts/logger.js';
export { RateLimitResult, type RateLimiter } from './contracts/rate-limiter.js';
export type { PolicyRule, PolicyRuleProvider } from './contracts/policy-rule-provider.js';
export type { ConfirmationBinding, ConfirmationStore, ConfirmationToken } from './contracts/confirmation-store.js';
export type { Verifier } from './contracts/verifier.js';
export type { InvocationHistoryStore, InvocationReservation } from './contracts/invocation-history-store.js';
export type { ChannelRenderer } from './contracts/channel-renderer.js';
export type { LlmMessage, LlmResponse, LlmService, LlmToolCall } from './contracts/llm-service.js';
export type { ToolRegistry } from './contracts/tool-registry.js';
export type { ToolProvider } from './contracts/tool-provider.js';
export type {
  VerificationApproval,
  VerificationDecision,
  VerificationDecisionOutcome,
  VerificationRecord,
  VerificationRefusal,
  VerificationStore,
} from './contracts/verification-store.js';
