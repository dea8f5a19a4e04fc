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
import { isTextOrNull, timeOf } from '../database/time-column.js';

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

function isBinding(binding: unknown): binding is ConfirmationBinding {
  if (typeof binding !== 'object' || binding === null) return false;
  const { principal, channel } = binding as Partial<ConfirmationBinding>;
  return typeof channel === 'string' && (principal === null || typeof principal === 'string');
}

/** The stored arguments of a token row, checked. */
function argumentsOf(row: Record<string, unknown>): ToolArgs {
  if (typeof row['tool'] !== 'string' || typeof row['channel'] !== 'string' || !isTextOrNull(row['principal'])) {
    throw malformedRow('confirmation', 'a confirmation token with missing or mistyped columns');
  }
  const args = fromPlainJsonText(row['args_json']);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw malformedRow('confirmation', 'a confirmation token whose arguments are not a JSON object');
  }
  return args as ToolArgs;
}

/**
 * The {@link ConfirmationStore} over the `confirmation_tokens` table: tokens survive a restart and
 * any process that uses the database can redeem them, exactly once, for the tool, principal and
 * channel that asked, until they expire.
 *
 * - A token is 32 lowercase hex characters (128 random bits) and stays redeemable through its
 *   `expiresAt` (creation plus the TTL, to the millisecond).
 * - The arguments are stored as JSON text: they must be plain JSON data.
 * - `consume` is one `DELETE … RETURNING` statement, which deletes the token only when it is expired
 *   or presented by its rightful caller, so however many callers race, in one process or several,
 *   exactly one gets the arguments. A token presented for another tool or by another caller is
 *   refused and stays redeemable by its rightful caller.
 * - Expired tokens are deleted when presented and swept in bounded steps by {@link PostgresStores}.
 *
 * Get one from {@link PostgresStores.connect}.
 *
 * @example
 * const stores = await PostgresStores.connect({ connectionString: 'postgres://127.0.0.1:5432/app' });
 * const registry = new ToolRegistry({ confirmationStore: stores.confirmation });
 */
export class PostgresConfirmationStore implements ConfirmationStore {
  readonly #database: StoreDatabase;
  readonly #ttlMs: number;
  readonly #insert: string;
  readonly #consume: string;
  readonly #select: string;

  /** @internal Use {@link PostgresStores.connect}. */
  constructor(database: StoreDatabase, ttlSeconds: number) {
    this.#database = database;
    this.#ttlMs = ttlSeconds * 1000;
    const table = database.table('confirmation_tokens');
    this.#insert =
      `INSERT INTO ${table} (token, tool, args_json, action_summary, principal, channel, expires_at) ` +
      'VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (token) DO NOTHING';
    // Deletes an expired token, or a live one its rightful caller presents; a wrong guess burns nothing.
    this.#consume =
      `DELETE FROM ${table} WHERE token = $1 AND (expires_at < $2 OR ` +
      '(tool = $3 AND principal IS NOT DISTINCT FROM $4 AND channel = $5)) RETURNING tool, args_json, principal, channel, expires_at';
    this.#select = `SELECT tool, args_json, principal, channel, expires_at FROM ${table} WHERE token = $1`;
  }

  /**
   * Stores `args` for `toolName` on behalf of `binding` and resolves to a new token.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an empty tool name, args that are not a plain JSON
   *   object, a non-string summary or a malformed binding; nothing is stored then.
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database cannot store it.
   */
  async create(toolName: string, args: ToolArgs, actionSummary: string, binding: ConfirmationBinding): Promise<ConfirmationToken> {
    if (typeof toolName !== 'string' || toolName === '') throw invalid('Confirmation tool name must be a non-empty string.');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalid('Confirmation args must be an object.');
    if (typeof actionSummary !== 'string') throw invalid('Confirmation action summary must be a string.');
    if (!isBinding(binding)) throw invalid('Confirmation binding needs a string channel and a string or null principal.');
    const argsJson = toPlainJsonText(args, 'Confirmation args');
    const expiresAt = this.#database.now() + this.#ttlMs;
    for (;;) {
      const token = generateRandomId();
      const values = [token, toolName, argsJson, actionSummary, binding.principal, binding.channel, expiresAt];
      // 128 random bits do not collide in practice; a taken token is drawn again rather than overwritten.
      const { rowCount } = await this.#database.query('confirmation', this.#insert, values);
      if (rowCount === 1) return Object.freeze({ token, expiresAt: new Date(expiresAt), actionSummary });
    }
  }

  /**
   * Redeems `token`: resolves to the stored arguments (deeply frozen) and deletes the token, or to
   * null when the token is not a string, unknown, used, expired (then deleted), or for another tool
   * or caller (then kept).
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the token's row is malformed.
   */
  async consume(token: string, toolName: string, binding: ConfirmationBinding): Promise<ToolArgs | null> {
    if (typeof token !== 'string' || !isBinding(binding)) return null;
    const now = this.#database.now();
    const values = [token, now, toolName, binding.principal, binding.channel];
    // In a transaction so that a malformed row, found after the delete, is rolled back rather than lost.
    return this.#database.transaction('confirmation', async (run) => {
      const row = (await run(this.#consume, values)).rows[0];
      if (row === undefined) return null;
      const expiresAt = timeOf(row['expires_at']);
      if (expiresAt === undefined) throw malformedRow('confirmation', 'a confirmation token with a mistyped expiry');
      return expiresAt < now ? null : argumentsOf(row);
    });
  }

  /**
   * True when `consume` would succeed now; consumes nothing.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the token's row is malformed.
   */
  async isValid(token: string, toolName: string, binding: ConfirmationBinding): Promise<boolean> {
    if (typeof token !== 'string' || !isBinding(binding)) return false;
    const { rows } = await this.#database.query('confirmation', this.#select, [token]);
    const row = rows[0];
    if (row === undefined) return false;
    const expiresAt = timeOf(row['expires_at']);
    if (expiresAt === undefined) throw malformedRow('confirmation', 'a confirmation token with a mistyped expiry');
    argumentsOf(row);
    return (
      expiresAt >= this.#database.now() &&
      row['tool'] === toolName &&
      row['principal'] === binding.principal &&
      row['channel'] === binding.channel
    );
  }
}
