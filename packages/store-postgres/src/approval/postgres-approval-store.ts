import {
  MilpaError,
  checkApprovalClaim,
  type ApprovalClaim,
  type ApprovalRedemption,
  type ApprovalSettlement,
  type ApprovalStore,
  type PendingApproval,
  type ToolArgs,
} from '@milpa/core';
import { fromPlainJsonText, isApprovalSettlement, isUnredeemedHeldCall, toPlainJsonText } from '@milpa/core/kit';
import { malformedRow, type RunStatement, type StoreDatabase } from '../database/store-database.js';
import { isTextOrNull, timeOf } from '../database/time-column.js';

type Row = Record<string, unknown>;

/** The settlement columns as a settlement, null while unsettled. */
function decodeSettlement(row: Row): ApprovalSettlement | null {
  const { settled_outcome: outcome, settled_code: code, settled_at: rawAt } = row;
  if (outcome === null && code === null && rawAt === null) return null;
  const at = timeOf(rawAt);
  if ((outcome !== 'succeeded' && outcome !== 'failed') || !isTextOrNull(code) || at === undefined)
    throw malformedRow('approval', 'a held call with a malformed settlement');
  return Object.freeze({ outcome, code, at: new Date(at) });
}

function decode(row: Row): PendingApproval {
  const { approval_id: approvalId, tool, args_digest: digest, principal, channel, run_id: runId, request_id: requestId } = row;
  const createdAt = timeOf(row['created_at']);
  const expiresAt = timeOf(row['expires_at']);
  const redeemedAt = row['redeemed_at'] === null ? null : timeOf(row['redeemed_at']);
  if (
    typeof approvalId !== 'string' ||
    typeof tool !== 'string' ||
    typeof digest !== 'string' ||
    !isTextOrNull(principal) ||
    typeof channel !== 'string' ||
    !isTextOrNull(runId) ||
    typeof requestId !== 'string' ||
    createdAt === undefined ||
    expiresAt === undefined ||
    redeemedAt === undefined
  ) {
    throw malformedRow('approval', 'a held call with missing or mistyped columns');
  }
  const args = fromPlainJsonText(row['args_json']);
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw malformedRow('approval', 'a held call whose arguments are not a JSON object');
  return Object.freeze({
    approvalId,
    toolName: tool,
    arguments: args as ToolArgs,
    argumentsDigest: digest,
    principal,
    channel,
    runId,
    requestId,
    createdAt: new Date(createdAt),
    expiresAt: new Date(expiresAt),
    redeemedAt: redeemedAt === null ? null : new Date(redeemedAt),
    settlement: decodeSettlement(row),
  });
}

/**
 * The {@link ApprovalStore} over the `approval_holds` table: calls held for approval survive a
 * restart (a process killed while a call waits loses nothing: the call was committed before its
 * requester was told to wait), and any process that uses the database can resume them, exactly
 * once, for the tool, principal, channel and run that asked.
 *
 * - The held arguments are stored as JSON text: they must be plain JSON data.
 * - `open` is one `INSERT … ON CONFLICT` statement that writes only when the id is free (or held
 *   by a call past its retention).
 * - `redeem` locks the held call's row (`SELECT … FOR UPDATE`), checks the claim with the rule
 *   every store applies (`checkApprovalClaim`) and marks it used in one transaction, so however
 *   many resumes race, in one process or several, exactly one redeems it. A claim by another caller
 *   is refused and leaves the call redeemable by its requester. `settle` records, once, how the
 *   resumed call ended, the same way.
 * - A held call is kept until its expiry plus the retention, a used one until the retention has
 *   passed since its use, so a late resume is told "expired" or "used" rather than "unknown"; then
 *   it is forgotten (swept in bounded steps by {@link PostgresStores}).
 *
 * Get one from {@link PostgresStores.connect}.
 *
 * @example
 * const stores = await PostgresStores.connect({ connectionString: 'postgres://127.0.0.1:5432/app' });
 * const registry = new ToolRegistry({ approvalGate, approvalStore: stores.approval });
 */
export class PostgresApprovalStore implements ApprovalStore {
  readonly #database: StoreDatabase;
  readonly #retentionMs: number;
  readonly #table: string;

  /** @internal Use {@link PostgresStores.connect}. */
  constructor(database: StoreDatabase, retentionMs: number) {
    this.#database = database;
    this.#retentionMs = retentionMs;
    this.#table = database.table('approval_holds');
  }

  /**
   * Stores a new held call; false when its id is taken by a call still kept.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed or already redeemed record, or arguments
   *   that are not plain JSON data; nothing is stored then.
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  async open(approval: PendingApproval): Promise<boolean> {
    if (!isUnredeemedHeldCall(approval))
      throw new MilpaError('PostgresApprovalStore.open() needs a well-formed, unredeemed PendingApproval.', { code: 'INVALID_ARGUMENT' });
    const argsJson = toPlainJsonText(approval.arguments, 'Held call arguments');
    const columns =
      'approval_id, tool, args_json, args_digest, principal, channel, run_id, request_id, created_at, expires_at, redeemed_at, ' +
      'settled_outcome, settled_code, settled_at, forget_at';
    const replaced = columns
      .split(', ')
      .slice(1)
      .map((column) => `${column} = EXCLUDED.${column}`)
      .join(', ');
    const { rowCount } = await this.#database.query(
      'approval',
      `INSERT INTO ${this.#table} AS held (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, NULL, NULL, NULL, $11) ` +
        `ON CONFLICT (approval_id) DO UPDATE SET ${replaced} WHERE held.forget_at <= $12`,
      [
        approval.approvalId,
        approval.toolName,
        argsJson,
        approval.argumentsDigest,
        approval.principal,
        approval.channel,
        approval.runId,
        approval.requestId,
        approval.createdAt.getTime(),
        approval.expiresAt.getTime(),
        approval.expiresAt.getTime() + this.#retentionMs + 1,
        this.#database.now(),
      ],
    );
    return rowCount === 1;
  }

  /**
   * The held call with that id (used or not), or null when unknown, forgotten, or the id is not a string.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  async get(approvalId: string): Promise<PendingApproval | null> {
    if (typeof approvalId !== 'string') return null;
    const { rows } = await this.#database.query('approval', `SELECT * FROM ${this.#table} WHERE approval_id = $1`, [approvalId]);
    return this.#load(rows[0]);
  }

  /**
   * Checks `claim` against the held call and marks it used, in one transaction.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed;
   *   nothing changed then.
   */
  async redeem(approvalId: string, claim: ApprovalClaim): Promise<ApprovalRedemption> {
    if (typeof approvalId !== 'string') return { status: 'refused', refusal: 'not_found', approval: null };
    return this.#database.transaction('approval', async (run) => {
      const approval = await this.#lock(run, approvalId);
      if (approval === null) return { status: 'refused', refusal: 'not_found', approval: null };
      const refusal = checkApprovalClaim(approval, claim);
      if (refusal !== null) return { status: 'refused', refusal, approval };
      const redeemedAt = this.#database.now();
      await run(`UPDATE ${this.#table} SET redeemed_at = $2, forget_at = $3 WHERE approval_id = $1`, [
        approvalId,
        redeemedAt,
        redeemedAt + this.#retentionMs + 1,
      ]);
      return { status: 'redeemed', approval: Object.freeze({ ...approval, redeemedAt: new Date(redeemedAt) }) };
    });
  }

  /**
   * Records how the redeemed held call ended, once, in one transaction: false (nothing changed) when
   * the id is unknown, the call was never redeemed or it is settled already.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed settlement.
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  async settle(approvalId: string, settlement: ApprovalSettlement): Promise<boolean> {
    if (!isApprovalSettlement(settlement))
      throw new MilpaError('PostgresApprovalStore.settle() needs { outcome, code, at }.', { code: 'INVALID_ARGUMENT' });
    if (typeof approvalId !== 'string') return false;
    return this.#database.transaction('approval', async (run) => {
      const approval = await this.#lock(run, approvalId);
      if (approval === null || approval.redeemedAt === null || approval.settlement !== null) return false;
      await run(`UPDATE ${this.#table} SET settled_outcome = $2, settled_code = $3, settled_at = $4 WHERE approval_id = $1`, [
        approvalId,
        settlement.outcome,
        settlement.code,
        settlement.at.getTime(),
      ]);
      return true;
    });
  }

  /** The held call, its row locked until the transaction ends; null when unknown or forgotten. */
  async #lock(run: RunStatement, approvalId: string): Promise<PendingApproval | null> {
    return this.#load((await run(`SELECT * FROM ${this.#table} WHERE approval_id = $1 FOR UPDATE`, [approvalId])).rows[0]);
  }

  #load(row: Row | undefined): PendingApproval | null {
    if (row === undefined) return null;
    const forgetAt = timeOf(row['forget_at']);
    if (forgetAt !== undefined && forgetAt <= this.#database.now()) return null;
    return decode(row);
  }
}
