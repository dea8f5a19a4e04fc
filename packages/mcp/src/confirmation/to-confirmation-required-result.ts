import type { AnyToolDefinition } from '@milpa/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolErrorContent } from '../results/mcp-tool-error-content.js';
import { toToolErrorResult } from '../results/to-tool-error-result.js';
import type { PendingConfirmation } from './pending-confirmation.js';

/**
 * The two-call confirmation flow (ask, then replay with the token) for clients that cannot show a form: nothing ran; the text
 * tells the model how to replay the call with `confirm_token`. It is marked `isError` (as the
 * ecosystem conventions advise) so that a client validating `outputSchema` accepts it and a model
 * does not mistake it for the tool's answer.
 */
export function toConfirmationRequiredResult(pending: PendingConfirmation, definition: AnyToolDefinition | null): CallToolResult {
  const text =
    `Confirmation required: ${pending.actionSummary}. Nothing has run yet. To proceed, call ` +
    `'${pending.toolName}' again with the same arguments plus "confirm_token": "${pending.token}". ` +
    `The token works once. It expires at ${pending.expiresAt}.`;
  const structured: McpToolErrorContent = {
    code: 'CONFIRMATION_REQUIRED',
    confirm_token: pending.token,
    action_summary: pending.actionSummary,
    expires_at: pending.expiresAt,
  };
  return toToolErrorResult(text, structured, definition);
}
