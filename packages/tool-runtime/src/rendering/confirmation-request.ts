import type { ToolResult } from '@milpa/core';

/** What a confirm-token request (the first call of the two-call flow) tells the caller. */
export interface ConfirmationRequest {
  /** The token to send back as `confirm_token`. */
  readonly token: string;
  /** What would run, e.g. `delete_note(id=42)`, or null. */
  readonly summary: string | null;
  /** When the token expires (ISO 8601), or null. */
  readonly expiresAt: string | null;
  /** The tool to call again (`meta.tool`), or null. */
  readonly tool: string | null;
}

/** The confirm-token request carried by `result`, or null when it is not one. */
export function readConfirmationRequest(result: ToolResult): ConfirmationRequest | null {
  if (!result.success) return null;
  const token = result.getConfirmToken();
  if (token === null) return null;
  const data = result.data as Record<string, unknown>;
  const summary = data['action_summary'];
  const expiresAt = data['expires_at'];
  const tool = result.meta['tool'];
  return {
    token,
    summary: typeof summary === 'string' ? summary : result.message,
    expiresAt: typeof expiresAt === 'string' ? expiresAt : null,
    tool: typeof tool === 'string' ? tool : null,
  };
}

/** How to go on: replay the call with the token before it expires, or let it expire. */
export function describeReplay(request: ConfirmationRequest): string {
  const target = request.tool === null ? 'repeat the call' : `call '${request.tool}' again`;
  const deadline = request.expiresAt === null ? '' : ` before ${request.expiresAt}`;
  return (
    `To confirm, ${target} with confirm_token "${request.token}"${deadline}; ` +
    "the first call's arguments are replayed. To cancel, let the token expire."
  );
}
