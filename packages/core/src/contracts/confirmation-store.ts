import type { ToolArgs } from '../tools/tool-definition.js';

/** Who a confirmation token was minted for; a token only redeems for the same caller. */
export interface ConfirmationBinding {
  /** The principal that asked, or null. */
  readonly principal: string | null;
  /** The channel it asked on. */
  readonly channel: string;
}

/** A minted confirmation token. */
export interface ConfirmationToken {
  /** 32 lowercase hex characters. */
  readonly token: string;
  /** When it stops being redeemable. */
  readonly expiresAt: Date;
  /** A short description of the pending action, e.g. `delete_note(id=42)`. */
  readonly actionSummary: string;
}

/**
 * Holds pending confirmations: the exact arguments of the first call, redeemable once, by the same
 * tool, principal and channel, before the token expires. Implementations may be async (a store
 * shared across processes); `consume` must be atomic so a token redeems exactly once.
 */
export interface ConfirmationStore {
  /** Snapshots `args` for `toolName` and returns a new token. */
  create(
    toolName: string,
    args: ToolArgs,
    actionSummary: string,
    binding: ConfirmationBinding,
  ): ConfirmationToken | Promise<ConfirmationToken>;
  /**
   * Redeems the token: returns the stored args and forgets the token, or null when it is unknown, expired, or for another tool or caller.
   */
  consume(token: string, toolName: string, binding: ConfirmationBinding): ToolArgs | null | Promise<ToolArgs | null>;
  /** True when `consume` would succeed now; does not consume. */
  isValid(token: string, toolName: string, binding: ConfirmationBinding): boolean | Promise<boolean>;
}
