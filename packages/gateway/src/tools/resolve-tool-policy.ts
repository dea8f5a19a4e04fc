import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolPolicyConfig } from '../config/gateway-config.js';

/** The policy a gateway tool runs under, every field decided. */
export interface ResolvedToolPolicy {
  /** Scopes of which a caller needs at least one. */
  readonly scopes: readonly string[];
  /** Whether the tool changes state. */
  readonly mutating: boolean;
  /** Whether every call needs a confirmation round trip. */
  readonly requiresConfirmation: boolean;
  /** Which approval gate mutating calls go through, or null for none. */
  readonly approval: 'terminal' | 'host' | null;
  /** The rate cost of every call, or null for the gateway's default costs. */
  readonly rateCost: number | null;
  /** The result cap in tokens; 0: none. */
  readonly maxResultTokens: number;
  /** Milliseconds the upstream has to answer. */
  readonly timeoutMs: number;
}

/** Gateway-wide defaults a tool's policy falls back to. */
export interface ToolPolicyDefaults {
  /** The result cap of tools that set none. */
  readonly maxResultTokens: number;
  /** The deadline of tools that set none. */
  readonly timeoutMs: number;
}

/**
 * Whether an upstream tool mutates, judged from its annotations alone: only a tool marked
 * `readOnlyHint: true` (and not also `destructiveHint: true`) is read-only; without annotations a
 * tool is treated as mutating, the safe side.
 */
export function isMutatingByAnnotations(annotations: ToolAnnotations | undefined): boolean {
  return !(annotations?.readOnlyHint === true && annotations.destructiveHint !== true);
}

/**
 * The policy of one upstream tool: the per-tool settings win over the upstream's `defaults`, which
 * win over what the upstream's annotations say (`mutating`) and the gateway-wide defaults.
 *
 * @example
 * resolveToolPolicy({ annotations: { readOnlyHint: true } }, { scopes: ['docs:read'] }, undefined, {
 *   maxResultTokens: 2500,
 *   timeoutMs: 60000,
 * });
 * // { scopes: ['docs:read'], mutating: false, requiresConfirmation: false, approval: null, … }
 */
export function resolveToolPolicy(
  tool: { readonly annotations?: ToolAnnotations | undefined },
  defaults: ToolPolicyConfig | undefined,
  override: ToolPolicyConfig | undefined,
  gateway: ToolPolicyDefaults,
): ResolvedToolPolicy {
  const pick = <K extends keyof ToolPolicyConfig>(key: K): ToolPolicyConfig[K] => override?.[key] ?? defaults?.[key];
  return Object.freeze({
    scopes: Object.freeze([...(pick('scopes') ?? [])]),
    mutating: pick('mutating') ?? isMutatingByAnnotations(tool.annotations),
    requiresConfirmation: pick('requiresConfirmation') ?? false,
    approval: pick('approval') ?? null,
    rateCost: pick('rateCost') ?? null,
    maxResultTokens: pick('maxResultTokens') ?? gateway.maxResultTokens,
    timeoutMs: pick('timeoutMs') ?? gateway.timeoutMs,
  });
}
