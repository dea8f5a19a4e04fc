import { ToolResult, describeRefusalForModel, type ContentBlock, type ToolErrorCode } from '@milpa/core';
import { ToolMessage } from '@langchain/core/messages';
import type { MilpaToolError } from './milpa-tool-error.js';

/** The text content part of a LangChain message (a type alias: LangChain's parts are index-signed). */
type TextPart = { type: 'text'; text: string };

/** The refusal of `result` as the model reads it: core's `describeRefusalForModel`, in the fields this toolkit sends. */
export function describeRefusal(result: ToolResult): MilpaToolError {
  const refusal = describeRefusalForModel(result);
  return {
    code: refusal.code,
    message: refusal.message,
    ...(refusal.errors === undefined ? {} : { errors: refusal.errors }),
    ...(refusal.retry_after_seconds === undefined ? {} : { retry_after_seconds: refusal.retry_after_seconds }),
    ...(refusal.suggestion === undefined ? {} : { suggestion: refusal.suggestion }),
    ...(refusal.approval_id === undefined ? {} : { approval_id: refusal.approval_id }),
    ...(refusal.expires_at === undefined ? {} : { expires_at: refusal.expires_at }),
    ...(refusal.approval_refusal === undefined ? {} : { approval_refusal: refusal.approval_refusal }),
  };
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

/**
 * A refusal this adapter decides itself (nothing reached the tool's handler), as an error
 * `ToolMessage`: `{ code, message, …details }` as JSON, the same refusal as a result as its artifact.
 */
export function refusalMessage(
  code: ToolErrorCode | 'CONFIRMATION_DECLINED',
  message: string,
  toolName: string,
  toolCallId: string,
  details: Omit<MilpaToolError, 'code' | 'message'> = {},
): ToolMessage {
  const content: MilpaToolError = { code, message, ...details };
  const artifact = new ToolResult(false, null, null, message, { ...details, tool: toolName, code, type: 'error' }).toJSON();
  return new ToolMessage({ content: JSON.stringify(content), tool_call_id: toolCallId, name: toolName, status: 'error', artifact });
}
