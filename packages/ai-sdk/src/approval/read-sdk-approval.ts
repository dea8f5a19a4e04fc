import type { ModelMessage } from 'ai';

/** What the conversation says about a person's answer to the approval request of one tool call. */
export type SdkApprovalAnswer =
  | { readonly status: 'approved'; readonly reason: string | null }
  | { readonly status: 'denied' }
  | { readonly status: 'missing' };

function partsOf(message: ModelMessage): readonly unknown[] {
  return Array.isArray(message.content) ? (message.content as readonly unknown[]) : [];
}

function isPart(part: unknown, type: string): part is Record<string, unknown> {
  return typeof part === 'object' && part !== null && (part as { type?: unknown }).type === type;
}

/** True when an assistant message of `messages` already holds a tool call with this id. */
export function hasToolCall(messages: readonly ModelMessage[], toolCallId: string): boolean {
  return messages.some(
    (message) =>
      message.role === 'assistant' && partsOf(message).some((part) => isPart(part, 'tool-call') && part['toolCallId'] === toolCallId),
  );
}

/**
 * The person's answer to the approval requests of `toolCallId` in `messages`: any denial wins
 * over an approval (a conversation holding both was tampered with or replayed), and no answer
 * is `missing`.
 */
export function readSdkApproval(messages: readonly ModelMessage[], toolCallId: string): SdkApprovalAnswer {
  const approvalIds = new Set<unknown>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of partsOf(message)) {
      if (isPart(part, 'tool-approval-request') && part['toolCallId'] === toolCallId) approvalIds.add(part['approvalId']);
    }
  }
  let approved: { readonly status: 'approved'; readonly reason: string | null } | null = null;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of partsOf(message)) {
      if (isPart(part, 'tool-result') && part['toolCallId'] === toolCallId && isPart(part['output'], 'execution-denied'))
        return { status: 'denied' };
      if (!isPart(part, 'tool-approval-response') || !approvalIds.has(part['approvalId'])) continue;
      if (part['approved'] !== true) return { status: 'denied' };
      approved = { status: 'approved', reason: typeof part['reason'] === 'string' && part['reason'] !== '' ? part['reason'] : null };
    }
  }
  return approved ?? { status: 'missing' };
}
