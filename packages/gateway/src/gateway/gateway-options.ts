import type { ApprovalGate, Logger, RateLimiter } from '@milpa/core';
import type { ToolRegistryOptions } from '@milpa/tool-runtime';

/** Registry options a host may add to the gateway's own (stores, events, rules, telemetry, logging). */
export type GatewayRegistryOptions = Omit<
  ToolRegistryOptions,
  'tools' | 'deny' | 'groups' | 'rateLimiter' | 'rateLimit' | 'approvalGate' | 'approvalGates' | 'maxResultTokens' | 'defaultContext'
>;

/** What a host adds to a gateway configuration in code. */
export interface GatewayOptions {
  /** Where the gateway logs (upstream connections, skipped tools) and what the registry logs to. */
  readonly logger?: Logger;
  /** The gate for tools whose policy says `approval: 'host'` (e.g. `verifierApprovalGate` from `@milpa/verification`). */
  readonly approvalGate?: ApprovalGate;
  /** The gate for `approval: 'terminal'` (default `terminalApprovalGate()`, which asks on the gateway's terminal). */
  readonly terminalApprovalGate?: ApprovalGate;
  /** The rate limiter under the per-tool costs (default an in-memory one; pass a shared store's for several gateways). */
  readonly rateLimiter?: RateLimiter;
  /** Where `server.tokens[].tokenEnv` are read when serving over HTTP (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** More registry options: stores, dispatcher, invocation rules, telemetry, channel policies. */
  readonly registry?: GatewayRegistryOptions;
}
