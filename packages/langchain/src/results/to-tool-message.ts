import { ToolErrorCode, ToolResult, isToolErrorCode, type ContentBlock } from '@milpa/core';
import { ToolMessage } from '@langchain/core/messages';
import type { MilpaToolError } from './milpa-tool-error.js';

/** The text content part of a LangChain message (a type alias: LangChain's parts are index-signed). */
type TextPart = { type: 'text'; text: string };

/** Field-by-field problems in `meta.errors`, as `{ path, message }` pairs; undefined when there are none. */
function fieldProblems(meta: Readonly<Record<string, unknown>>): MilpaToolError['errors'] {
  const issues = meta['errors'];
  if (!Array.isArray(issues)) return undefined;
  const problems: { path: string; message: string }[] = [];
  for (const issue of issues as unknown[]) {
    if (typeof issue !== 'object' || issue === null) continue;
    const { path, message } = issue as { path?: unknown; message?: unknown };
    problems.push({ path: String(path ?? ''), message: String(message ?? '') });
  }
  return problems;
}

/** The refusal of `result` as the model reads it. */
export function describeRefusal(result: ToolResult): MilpaToolError {
  const code = result.getCode();
  const details: { -readonly [K in keyof MilpaToolError]: MilpaToolError[K] } = {
    // A code the pipeline (or this toolkit) set; a vetoed call is BLOCKED; a tool's own uncoded failure TOOL_ERROR.
    code: isToolErrorCode(code) || code === 'CONFIRMATION_DECLINED' ? code : result.isBlocked() ? 'BLOCKED' : 'TOOL_ERROR',
    message: result.error ?? result.message ?? 'The call failed.',
  };
  const { meta } = result;
  const errors = fieldProblems(meta);
  if (errors !== undefined) details.errors = errors;
  if (typeof meta['retry_after_seconds'] === 'number') details.retry_after_seconds = meta['retry_after_seconds'];
  if (typeof meta['suggestion'] === 'string' && meta['suggestion'] !== '') details.suggestion = meta['suggestion'];
  if (details.code === ToolErrorCode.APPROVAL_PENDING) {
    if (typeof meta['approval_id'] === 'string') details.approval_id = meta['approval_id'];
    if (typeof meta['expires_at'] === 'string') details.expires_at = meta['expires_at'];
  }
  if (typeof meta['approval_refusal'] === 'string') details.approval_refusal = meta['approval_refusal'];
  return details;
}

function blockText(block: ContentBlock): TextPart {
  if (block.type === 'text') return { type: 'text', text: block.text };
  // Binary and resource blocks reach the model as their JSON description; the full blocks stay in the artifact.
  return { type: 'text', text: JSON.stringify(block) };
}

function successContent(result: ToolResult): string | TextPart[] {
  const blocks = result.getContent();
  if (blocks !== null) {
    const parts = blocks.map(blockText);
    return result.message === null ? parts : [{ type: 'text', text: result.message }, ...parts];
  }
  if (result.data === null || result.data === undefined) return result.message ?? 'Done.';
  if (result.message === null) return typeof result.data === 'string' ? result.data : JSON.stringify(result.data);
  return JSON.stringify({ message: result.message, data: result.data });
}

/**
 * A Milpa `ToolResult` as the `ToolMessage` answering tool call `toolCallId`: a success carries
 * the data (JSON text) or the content blocks' text, a refusal carries {@link MilpaToolError} as JSON
 * with `status: 'error'`. Both keep the whole result (`toJSON()`) as the message's `artifact`.
 */
export function toToolMessage(result: ToolResult, toolName: string, toolCallId: string): ToolMessage {
  const artifact = result.toJSON();
  if (result.success) {
    return new ToolMessage({ content: successContent(result), tool_call_id: toolCallId, name: toolName, status: 'success', artifact });
  }
  return new ToolMessage({
    content: JSON.stringify(describeRefusal(result)),
    tool_call_id: toolCallId,
    name: toolName,
    status: 'error',
    artifact,
  });
}

/** A refusal this adapter decides itself (nothing reached the tool's handler), as an error `ToolMessage`. */
export function refusalMessage(
  code: ToolErrorCode | 'CONFIRMATION_DECLINED',
  message: string,
  toolName: string,
  toolCallId: string,
  meta: Readonly<Record<string, unknown>> = {},
): ToolMessage {
  const result = new ToolResult(false, null, null, message, { ...meta, tool: toolName, code, type: 'error' });
  return toToolMessage(result, toolName, toolCallId);
}
