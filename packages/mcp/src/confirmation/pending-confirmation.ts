import type { ToolResult } from '@milpa/core';

/** A confirmation the pipeline asked for: the token to redeem and what it would run. */
export interface PendingConfirmation {
  /** The tool that asked. */
  readonly toolName: string;
  /** The one-use token that redeems the first call's arguments. */
  readonly token: string;
  /** What would run, e.g. `delete_note(id=42)`. */
  readonly actionSummary: string;
  /** When the token expires, as the pipeline wrote it, or null. */
  readonly expiresAt: string | null;
}

/**
 * The pending confirmation in a result of the registry's confirm-token flow, or null for any other
 * result (including a tool's own `ToolResult.confirmation`, which carries no token).
 */
export function readPendingConfirmation(result: ToolResult, toolName: string): PendingConfirmation | null {
  if (!result.success || !result.requiresConfirmation()) return null;
  const token = result.getConfirmToken();
  if (token === null) return null;
  const data = result.data as Record<string, unknown>;
  const summary = data['action_summary'];
  const expiresAt = data['expires_at'];
  return {
    toolName,
    token,
    actionSummary: typeof summary === 'string' && summary !== '' ? summary : (result.message ?? toolName),
    expiresAt: typeof expiresAt === 'string' ? expiresAt : null,
  };
}
