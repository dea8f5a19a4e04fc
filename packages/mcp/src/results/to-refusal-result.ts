import { ToolErrorCode, describeRefusalForModel, type AnyToolDefinition, type ToolResult } from '@milpa/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolErrorContent } from './mcp-tool-error-content.js';
import { toToolErrorResult } from './to-tool-error-result.js';

/**
 * A failed `ToolResult` as an MCP tool execution error (spec 2025-11-25, SEP-1303): `isError: true`,
 * the pipeline's message verbatim as text, and `{ code, errors? }` as the reason, so the model sees
 * why and can correct itself. A call held for approval (`APPROVAL_PENDING`) also carries its
 * `approval_id` and `expires_at`, and its text says how to resume; a refused resume
 * (`APPROVAL_INVALID`) carries `approval_refusal`. Never a protocol error: that is kept for
 * unknown tools. What the model reads comes from core's `describeRefusalForModel`.
 */
export function toRefusalResult(result: ToolResult, definition: AnyToolDefinition | null): CallToolResult {
  const refusal = describeRefusalForModel(result);
  const details: { -readonly [K in keyof McpToolErrorContent]: McpToolErrorContent[K] } = { code: refusal.code };
  if (refusal.errors !== undefined) details.errors = refusal.errors;
  if (refusal.retry_after_seconds !== undefined) details.retry_after_seconds = refusal.retry_after_seconds;
  if (refusal.approval_id !== undefined) {
    details.approval_id = refusal.approval_id;
    if (refusal.expires_at !== undefined) details.expires_at = refusal.expires_at;
  }
  if (refusal.code === ToolErrorCode.APPROVAL_INVALID && refusal.approval_refusal !== undefined) {
    details.approval_refusal = refusal.approval_refusal;
  }
  let text = result.error ?? 'Unknown error';
  if (result.isBlocked() && refusal.suggestion !== undefined) {
    details.suggestion = refusal.suggestion;
    text += `\n\nSuggestion: ${refusal.suggestion}`;
  }
  return toToolErrorResult(text, details, definition);
}
