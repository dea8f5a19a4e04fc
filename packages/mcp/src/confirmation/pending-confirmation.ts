import type { ToolResult } from '@milpa/core';

/** A confirmation the pipeline asked for: the token to redeem and what it would run. */
export interface PendingConfirmation {
  /** The tool that asked. */
  readonly toolName: string;
  /** The one-use token that redeems the first call's arguments. */
  readonly token: string;
  /** What would run, e.g. `delete_note(id=42)`. */
  readonly actionSummary: string;
  /** When the token expires, as the pipeline wrote it. */
  readonly expiresAt: string;
}

/**
 * The pending confirmation of a call whose outcome is `confirmation_required`, or null for any
 * other outcome — including a tool's own `ToolResult.confirmation`, which carries no token, and a
 * result whose data merely looks like a confirmation request.
 *
 * @example
 * const pending = pendingConfirmationOf(await registry.call('delete_note', { id: 7 }, context), 'delete_note');
 */
export function pendingConfirmationOf(result: ToolResult, toolName: string): PendingConfirmation | null {
  const request = result.getConfirmationRequest();
  if (request === null) return null;
  return {
    toolName,
    token: request.token,
    actionSummary: request.summary !== '' ? request.summary : (result.message ?? toolName),
    expiresAt: request.expiresAt,
  };
}
