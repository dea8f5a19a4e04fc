// @milpa/tool-runtime/routing: what a model is offered. Provider shapes, the router and its profiles,
// per-turn tool budgets, token estimates and model limits.

// --- provider shapes ---
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
} from './provider-shapes.js';

// --- routing: which tools a turn sees ---
export {
  resolveToolProfile,
  profileMaxTools,
  profileTokenBudget,
  profileDescriptionStyle,
  type ToolProfile,
} from './tool-profile.js';
export {
  toolBudgetForModel,
  resolveToolBudget,
  UNLIMITED,
  DEFAULT_MODEL_TOOL_BUDGET,
  MODEL_TOOL_BUDGETS,
  type ToolBudgetInput,
} from './model-tool-budget.js';
export { ToolRouter, ROUTING_SIGNAL_WEIGHTS, type RoutableTool, type ToolRouteOptions, type ToolSelection } from './tool-router.js';
export { fitTokenBudget, type TokenBudgetFit, type TokenBudgetRequest, type TokenBudgetTool } from './fit-token-budget.js';
export type { ToolsForOptions, ToolsForResult } from '../registry/turn-tools.js';

// --- token budgets and model limits ---
export { MODEL_LIMITS, DEFAULT_MODEL_LIMIT, RECOMMENDED_TOOL_BUDGET_PERCENT } from '../budget/model-limits.js';
export {
  TokenEstimator,
  type ModelLimitOptions,
  type ModelLimitResolution,
  type ModelLimitSource,
  type TokenEstimatorOptions,
  type ToolBudgetCheck,
  type ToolBudgetSelection,
  type ToolsTokenEstimate,
} from '../budget/token-estimator.js';
export type { ToolsWithinBudget } from '../registry/tool-registry-options.js';
