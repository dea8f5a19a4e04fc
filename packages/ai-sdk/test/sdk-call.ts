import type { ModelMessage } from 'ai';
import type { AiSdkTool } from '../src/index.js';

/** What the AI SDK hands a tool's `execute` about a call (`needsApproval` gets the same fields). */
export type SdkCall = Parameters<NonNullable<AiSdkTool['execute']>>[1];

/**
 * The call options the AI SDK passes a tool, for tests that call `execute` or `needsApproval`
 * directly. AI SDK 7 also passes the tool's `context` (a required field there, absent in AI SDK 6):
 * the object carries an empty one, and being built apart from the call it fits either major's type.
 */
export function sdkCall(toolCallId: string, messages: ModelMessage[] = []): SdkCall {
  const call = { toolCallId, messages, context: {} };
  return call;
}
