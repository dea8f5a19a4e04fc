import { ToolErrorCode, type AnyToolDefinition, type ToolResult } from '@milpa/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolErrorCode, McpToolErrorContent } from './mcp-tool-error-content.js';
import { toToolErrorResult } from './to-tool-error-result.js';

function refusalCode(result: ToolResult): McpToolErrorCode {
  const code = result.getCode();
  if (code !== null && Object.hasOwn(ToolErrorCode, code)) return code as McpToolErrorCode;
  if (result.isBlocked()) return 'BLOCKED';
  return 'TOOL_ERROR';
}

function readIssues(value: unknown): McpToolErrorContent['errors'] {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter((issue): issue is Record<string, unknown> => typeof issue === 'object' && issue !== null)
    .map((issue) => ({ path: String(issue['path'] ?? ''), message: String(issue['message'] ?? '') }));
}

/**
 * A failed `ToolResult` as an MCP tool execution error (spec 2025-11-25, SEP-1303): `isError: true`,
 * the pipeline's message verbatim as text, and `{ code, errors? }` as the reason, so the model sees
 * why and can correct itself. A call held for approval (`APPROVAL_PENDING`) also carries its
 * `approval_id` and `expires_at`, and its text says how to resume; a refused resume
 * (`APPROVAL_INVALID`) carries `approval_refusal`. Never a protocol error: that is kept for
 * unknown tools.
 */
export function toRefusalResult(result: ToolResult, definition: AnyToolDefinition | null): CallToolResult {
  const details: { -readonly [K in keyof McpToolErrorContent]: McpToolErrorContent[K] } = { code: refusalCode(result) };
  const errors = readIssues(result.meta['errors']);
  if (errors !== undefined) details.errors = errors;
  const retryAfter = result.meta['retry_after_seconds'];
  if (typeof retryAfter === 'number') details.retry_after_seconds = retryAfter;
  const { approval_id: approvalId, expires_at: expiresAt, approval_refusal: approvalRefusal } = result.meta;
  if (details.code === ToolErrorCode.APPROVAL_PENDING && typeof approvalId === 'string') {
    details.approval_id = approvalId;
    if (typeof expiresAt === 'string') details.expires_at = expiresAt;
  }
  if (details.code === ToolErrorCode.APPROVAL_INVALID && typeof approvalRefusal === 'string') details.approval_refusal = approvalRefusal;
  let text = result.error ?? 'Unknown error';
  const suggestion = result.meta['suggestion'];
  if (result.isBlocked() && typeof suggestion === 'string' && suggestion !== '') {
    details.suggestion = suggestion;
    text += `\n\nSuggestion: ${suggestion}`;
  }
  return toToolErrorResult(text, details, definition);
}
