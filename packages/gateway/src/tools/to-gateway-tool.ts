import { ToolErrorCode, ToolResult, type AnyToolDefinition, type JsonSchema, type ToolInvocation } from '@milpa/core';
import { capToolResult } from '@milpa/tool-runtime';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamConnection } from '../upstream/upstream-connection.js';
import type { ResolvedToolPolicy } from './resolve-tool-policy.js';
import { toUpstreamFailure } from './to-upstream-failure.js';
import { toUpstreamResult } from './to-upstream-result.js';
import { UPSTREAM_ERROR_META_KEY } from './upstream-error-kind.js';

const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * An upstream's input schema as the registry validates it: the schema is kept as the upstream
 * declared it, except a `$schema` naming an older draft (the registry validates with 2020-12,
 * which reads the keywords MCP servers use the same way) and a missing root `type: 'object'`.
 */
export function toGatewayInputSchema(schema: Tool['inputSchema']): JsonSchema {
  const copy: Record<string, unknown> = structuredClone(schema as Record<string, unknown>);
  if (typeof copy['$schema'] === 'string' && !DRAFT_2020_12.test(copy['$schema'])) delete copy['$schema'];
  if (copy['type'] === undefined) copy['type'] = 'object';
  return copy;
}

/** What {@link toGatewayTool} needs to know about where a tool comes from. */
export interface GatewayToolSource {
  /** The upstream connection the calls go to. */
  readonly connection: UpstreamConnection;
  /** The tool as the upstream lists it. */
  readonly tool: Tool;
  /** The name on the gateway (prefix + upstream name). */
  readonly name: string;
  /** The tool's resolved policy. */
  readonly policy: ResolvedToolPolicy;
}

/**
 * A registry tool that forwards to an upstream: the upstream's description, title and input
 * schema, the resolved policy's scopes, mutability, confirmation and deadline (hard: the pipeline
 * answers `TIMEOUT` at the deadline and the upstream is told to stop). The handler runs after every
 * gate has passed; it sends the validated arguments (and nothing of the caller's credentials), the
 * caller's abort signal and, when the caller asked for progress, the upstream's progress.
 *
 * @example
 * registry.register(toGatewayTool({ connection, tool, name: 'files_read_file', policy }));
 */
export function toGatewayTool(source: GatewayToolSource): AnyToolDefinition {
  const { connection, tool, name, policy } = source;
  const upstream = connection.name;
  const maxChars = policy.maxResultTokens * 4;
  return {
    name,
    description: tool.description ?? tool.annotations?.title ?? tool.title ?? `${tool.name} (from ${upstream})`,
    title: tool.title ?? tool.annotations?.title ?? null,
    inputSchema: toGatewayInputSchema(tool.inputSchema),
    scopes: policy.scopes,
    mutating: policy.mutating,
    requiresConfirmation: policy.requiresConfirmation,
    timeoutMs: policy.timeoutMs,
    hardTimeout: true,
    clamps: {},
    version: null,
    outputSchema: null,
    routing: null,
    async handler(args: Readonly<Record<string, unknown>>, { signal, caller }: ToolInvocation) {
      if (connection.state === 'ready' && !connection.tools.some((offered) => offered.name === tool.name)) {
        return ToolResult.failure(ToolErrorCode.TOOL_NOT_FOUND, `Upstream '${upstream}' no longer offers '${name}'.`, null, {
          upstream,
          [UPSTREAM_ERROR_META_KEY]: 'withdrawn',
        });
      }
      try {
        const result = await connection.callTool(tool.name, args, {
          signal,
          // The deadline is the pipeline's; the SDK's own request timeout only backs it up.
          timeoutMs: policy.timeoutMs + 1_000,
          ...(caller.capabilities.progress
            ? {
                onprogress: (progress) =>
                  void caller.reportProgress(progress.progress, progress.total, progress.message).catch(() => undefined),
              }
            : {}),
        });
        return toUpstreamResult(result, upstream, maxChars);
      } catch (error) {
        const failure = toUpstreamFailure(error, upstream, name, signal, connection.retryAfterMs);
        // The upstream's error text is the upstream's to choose: it is capped like a result.
        return maxChars > 0 ? (capToolResult(failure, maxChars) ?? failure) : failure;
      }
    },
  } satisfies AnyToolDefinition;
}
