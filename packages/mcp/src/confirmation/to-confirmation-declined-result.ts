import type { AnyToolDefinition } from '@milpa/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolErrorContent } from '../results/mcp-tool-error-content.js';
import { toToolErrorResult } from '../results/to-tool-error-result.js';
import type { PendingConfirmation } from './pending-confirmation.js';

/** The refusal sent when the person declines or cancels the confirmation form: nothing ran. */
export function toConfirmationDeclinedResult(
  pending: PendingConfirmation,
  action: 'decline' | 'cancel',
  definition: AnyToolDefinition | null,
): CallToolResult {
  const verb = action === 'decline' ? 'declined' : 'cancelled';
  const text = `The user ${verb} the confirmation of ${pending.actionSummary}; '${pending.toolName}' was not run.`;
  const structured: McpToolErrorContent = { code: 'CONFIRMATION_DECLINED', action_summary: pending.actionSummary };
  return toToolErrorResult(text, structured, definition);
}
