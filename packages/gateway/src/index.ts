// @milpa/gateway: serves the tools of existing MCP servers (stdio or Streamable HTTP upstreams)
// through Milpa's governed pipeline, with per-tool policy from one configuration file.

export { createGateway, Gateway, type GatewayServerHandle, type UpstreamStatus } from './gateway/gateway.js';
export type { GatewayOptions, GatewayRegistryOptions } from './gateway/gateway-options.js';
export { GatewayToolRegistry } from './gateway/gateway-tool-registry.js';
export { ToolApprovalGate } from './gateway/tool-approval-gate.js';
export { ToolCostRateLimiter } from './gateway/tool-cost-rate-limiter.js';

export type {
  GatewayConfig,
  GatewayRateLimitConfig,
  GatewayServerConfig,
  GatewayTokenConfig,
  GatewayTransport,
  HttpUpstreamConfig,
  RestartConfig,
  StdioUpstreamConfig,
  ToolPolicyConfig,
  UpstreamConfig,
  UpstreamConfigBase,
} from './config/gateway-config.js';
export { isStdioUpstream } from './config/gateway-config.js';
export { GATEWAY_CONFIG_SCHEMA, HTTP_UPSTREAM_SCHEMA, STDIO_UPSTREAM_SCHEMA } from './config/gateway-config-schema.js';
export { GatewayConfigError, type GatewayConfigIssue } from './config/gateway-config-error.js';
export {
  loadGatewayConfig,
  parseGatewayConfig,
  type GatewayEnvironment,
  type ParseGatewayConfigOptions,
} from './config/parse-gateway-config.js';

export {
  UpstreamConnection,
  type UpstreamCallOptions,
  type UpstreamConnectionOptions,
  type UpstreamState,
} from './upstream/upstream-connection.js';
export { UpstreamUnavailableError } from './upstream/upstream-unavailable-error.js';
export { RestartBackoff, type RestartBackoffOptions } from './upstream/restart-backoff.js';

export {
  resolveToolPolicy,
  isMutatingByAnnotations,
  type ResolvedToolPolicy,
  type ToolPolicyDefaults,
} from './tools/resolve-tool-policy.js';
export { toGatewayTool, toGatewayInputSchema, type GatewayToolSource } from './tools/to-gateway-tool.js';
export { toUpstreamResult } from './tools/to-upstream-result.js';
export { toUpstreamFailure } from './tools/to-upstream-failure.js';
export { capContentBlocks, type CappedContent } from './tools/cap-content-blocks.js';
export { UPSTREAM_ERROR_META_KEY, type UpstreamErrorKind } from './tools/upstream-error-kind.js';
