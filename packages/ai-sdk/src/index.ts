// @milpa/ai-sdk: a Milpa registry's tools as Vercel AI SDK tools, every call governed by the Milpa pipeline.
// Refusals are tool results the model reads; Milpa confirmations and approvals drive the SDK's own approval flow.

export { aiSdkTools, type AiSdkTool, type AiSdkToolSet } from './tools/ai-sdk-tools.js';
export type { AiSdkApprovalMode, AiSdkToolsOptions } from './tools/ai-sdk-tools-options.js';
export { toAiSdkToolOutput, type AiSdkToolOutput, type AiSdkToolRefusal, type AiSdkToolSuccess } from './results/ai-sdk-tool-output.js';
export { InMemoryToolApprovalLedger, type InMemoryToolApprovalLedgerOptions } from './approval/in-memory-tool-approval-ledger.js';
export type {
  GovernedCallOptions,
  GovernedPlanStep,
  GovernedToolRegistry,
  GovernedTurnOptions,
  GovernedTurnTools,
} from './registry/governed-tool-registry.js';
