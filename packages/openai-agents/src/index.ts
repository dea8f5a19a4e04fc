// @milpa/openai-agents: a Milpa registry's tools as native OpenAI Agents SDK tools.
// Every call runs the governed pipeline; Milpa approvals and confirmations surface as the run's approval interruptions.

export { toAgentsTools, type AgentsToolsOptions } from './tools/to-agents-tools.js';
export { agentsApprovalGate } from './approval/agents-approval-gate.js';
export { toModelOutput, type ModelRefusal } from './results/to-model-output.js';
export type { AgentsCallOptions, AgentsInvocationPlan, AgentsInvocationStep, AgentsToolRegistry } from './registry/agents-tool-registry.js';
