import {
  MilpaError,
  generateRandomId,
  type ConfirmationBinding,
  type ConfirmationStore,
  type ConfirmationToken,
  type ToolArgs,
} from '@milpa/core';
import { fromPlainJsonText, toPlainJsonText } from '@milpa/core/kit';
import { malformedRow, type StoreDatabase } from '../database/store-database.js';

interface TokenRow {
  readonly tool: unknown;
  readonly args_json: unknown;
  readonly principal: unknown;
  readonly channel: unknown;
  readonly expires_at: unknown;
}

const SELECT_TOKEN = 'SELECT tool, args_json, principal, channel, expires_at FROM confirmation_tokens WHERE token = ?';

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

function isBinding(binding: unknown): binding is ConfirmationBinding {
  if (typeof binding !== 'object' || binding === null) return false;
  const { principal, channel } = binding as Partial<ConfirmationBinding>;
  return typeof channel === 'string' && (principal === null || typeof principal === 'string');
}

/**
 * The {@link ConfirmationStore} over the `confirmation_tokens` table of a SQLite file: tokens
 * survive a restart and any process on the machine that opens the file can redeem them, exactly
 * once, for the tool, principal and channel that asked, until they expire.
 *
 * - A token is 32 lowercase hex characters (128 random bits) and stays redeemable through its
 *   `expiresAt` (creation plus the TTL, to the millisecond).
 * - The arguments are stored as JSON: they must be plain JSON data, and the first call's arguments
 *   are the ones redeemed.
 * - `consume` checks and deletes the token in one `BEGIN IMMEDIATE` transaction, so however many
 *   callers race, in one process or several, exactly one gets the arguments. A token presented for
 *   another tool or by another caller is refused and stays redeemable by its rightful caller.
 * - Expired tokens are deleted when presented and swept in bounded steps by {@link SqliteStores}.
 *
 * Get one from {@link SqliteStores.open}.
 *
 * @example
 * const stores = SqliteStores.open('/var/lib/my-agent/milpa.db');
 * const registry = new ToolRegistry({ confirmationStore: stores.confirmation });
 */
export class SqliteConfirmationStore implements ConfirmationStore {
  readonly #database: StoreDatabase;
  readonly #ttlMs: number;

  /** @internal Use {@link SqliteStores.open}. */
  constructor(database: StoreDatabase, ttlSeconds: number) {
    this.#database = database;
    this.#ttlMs = ttlSeconds * 1000;
  }

  /**
   * Stores `args` for `toolName` on behalf of `binding` and returns a new token.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an empty tool name, args that are not a plain JSON
   *   object, a non-string summary or a malformed binding; nothing is stored then.
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database cannot store it.
   */
  create(toolName: string, args: ToolArgs, actionSummary: string, binding: ConfirmationBinding): ConfirmationToken {
    if (typeof toolName !== 'string' || toolName === '') throw invalid('Confirmation tool name must be a non-empty string.');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalid('Confirmation args must be an object.');
    if (typeof actionSummary !== 'string') throw invalid('Confirmation action summary must be a string.');
    if (!isBinding(binding)) throw invalid('Confirmation binding needs a string channel and a string or null principal.');
    const argsJson = toPlainJsonText(args, 'Confirmation args');

    return this.#database.transaction('confirmation', (db) => {
      const expiresAt = this.#database.now() + this.#ttlMs;
      const insert = db.prepare(
        'INSERT OR IGNORE INTO confirmation_tokens (token, tool, args_json, ' +
          'action_summary, principal, channel, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      let token = generateRandomId();
      // 128 random bits do not collide in practice; a taken token is drawn again rather than overwritten.
      while (insert.run(token, toolName, argsJson, actionSummary, binding.principal, binding.channel, expiresAt).changes === 0)
        token = generateRandomId();
      return Object.freeze({ token, expiresAt: new Date(expiresAt), actionSummary });
    });
  }

  /**
   * Redeems `token`: returns the stored arguments (deeply frozen) and deletes the token, or null
   * when the token is not a string, unknown, used, expired (then deleted), or for another tool or
   * caller (then kept).
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the token's row is malformed.
   */
  consume(token: string, toolName: string, binding: ConfirmationBinding): ToolArgs | null {
    if (typeof token !== 'string' || !isBinding(binding)) return null;
    return this.#database.transaction('confirmation', (db) => {
      const verdict = this.#judge(db.prepare(SELECT_TOKEN).get(token) as TokenRow | undefined, toolName, binding);
      // Redeemed or expired, the token is gone; refused, it stays for its rightful caller.
      if (verdict === 'expired' || typeof verdict === 'object') db.prepare('DELETE FROM confirmation_tokens WHERE token = ?').run(token);
      return typeof verdict === 'object' ? verdict : null;
    });
  }

  /**
   * True when `consume` would succeed now; consumes nothing.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the token's row is malformed.
   */
  isValid(token: string, toolName: string, binding: ConfirmationBinding): boolean {
    if (typeof token !== 'string' || !isBinding(binding)) return false;
    return this.#database.read(
      'confirmation',
      (db) => typeof this.#judge(db.prepare(SELECT_TOKEN).get(token) as TokenRow | undefined, toolName, binding) === 'object',
    );
  }

  /** The stored arguments when this caller may redeem `row` now; otherwise why not. */
  #judge(row: TokenRow | undefined, toolName: string, binding: ConfirmationBinding): ToolArgs | 'unknown' | 'expired' | 'refused' {
    if (row === undefined) return 'unknown';
    const { tool, principal, channel, expires_at: expiresAt } = row;
    if (
      typeof tool !== 'string' ||
      typeof channel !== 'string' ||
      (principal !== null && typeof principal !== 'string') ||
      typeof expiresAt !== 'number'
    ) {
      throw malformedRow('confirmation', 'a confirmation token with missing or mistyped columns');
    }
    if (this.#database.now() > expiresAt) return 'expired';
    // Bound to the tool and the caller that asked: a wrong guess must not burn the token.
    if (tool !== toolName || principal !== binding.principal || channel !== binding.channel) return 'refused';
    const args = fromPlainJsonText(row.args_json);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw malformedRow('confirmation', 'a confirmation token whose arguments are not a JSON object');
    }
    return args as ToolArgs;
  }
}
