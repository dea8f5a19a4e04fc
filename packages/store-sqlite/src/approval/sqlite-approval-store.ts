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
import { malformedRow, type StoreDatabase } from '../database/store-database.js';

interface HoldRow {
  readonly approval_id: unknown;
  readonly tool: unknown;
  readonly args_json: unknown;
  readonly args_digest: unknown;
  readonly principal: unknown;
  readonly channel: unknown;
  readonly run_id: unknown;
  readonly request_id: unknown;
  readonly created_at: unknown;
  readonly expires_at: unknown;
  readonly redeemed_at: unknown;
  readonly forget_at: unknown;
  readonly settled_outcome: unknown;
  readonly settled_code: unknown;
  readonly settled_at: unknown;
}

const SELECT_HOLD = 'SELECT * FROM approval_holds WHERE approval_id = ?';

const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The settlement columns as a settlement, null while unsettled. */
function decodeSettlement(row: HoldRow): ApprovalSettlement | null {
  const { settled_outcome: outcome, settled_code: code, settled_at: at } = row;
  if (outcome === null && code === null && at === null) return null;
  if ((outcome !== 'succeeded' && outcome !== 'failed') || !isTextOrNull(code) || !isTime(at))
    throw malformedRow('approval', 'a held call with a malformed settlement');
  return Object.freeze({ outcome, code, at: new Date(at) });
}

function decode(row: HoldRow): PendingApproval {
  const { approval_id: approvalId, tool, args_digest: digest, principal, channel, run_id: runId, request_id: requestId } = row;
  const { created_at: createdAt, expires_at: expiresAt, redeemed_at: redeemedAt } = row;
  if (
    typeof approvalId !== 'string' ||
    typeof tool !== 'string' ||
    typeof digest !== 'string' ||
    !isTextOrNull(principal) ||
    typeof channel !== 'string' ||
    !isTextOrNull(runId) ||
    typeof requestId !== 'string' ||
    !isTime(createdAt) ||
    !isTime(expiresAt) ||
    !(redeemedAt === null || isTime(redeemedAt))
  ) {
    throw malformedRow('approval', 'a held call with missing or mistyped columns');
  }
  const args = fromPlainJsonText(row.args_json);
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
 * The {@link ApprovalStore} over the `approval_holds` table of a SQLite file: calls held for
 * approval survive a restart (a process killed while a call waits loses nothing), and any process
 * that opens the file can resume them, exactly once, for the tool, principal, channel and run that
 * asked.
 *
 * - The held arguments are stored as JSON: they must be plain JSON data.
 * - `redeem` reads the held call, checks the claim and marks it used in one `BEGIN IMMEDIATE`
 *   transaction, so however many resumes race, in one process or several, exactly one redeems it.
 *   A claim by another caller is refused and leaves the call redeemable by its requester.
 * - A held call is kept until its expiry plus the retention, a used one until the retention has
 *   passed since its use, so a late resume is told "expired" or "used" rather than "unknown"; then
 *   it is forgotten (swept in bounded steps by {@link SqliteStores}).
 *
 * Get one from {@link SqliteStores.open}.
 *
 * @example
 * const stores = SqliteStores.open('/var/lib/my-agent/milpa.db');
 * const registry = new ToolRegistry({ approvalGate, approvalStore: stores.approval });
 */
export class SqliteApprovalStore implements ApprovalStore {
  readonly #database: StoreDatabase;
  readonly #retentionMs: number;

  /** @internal Use {@link SqliteStores.open}. */
  constructor(database: StoreDatabase, retentionMs: number) {
    this.#database = database;
    this.#retentionMs = retentionMs;
  }

  /**
   * Stores a new held call; false when its id is taken by a call still kept.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed or already redeemed record, or arguments
   *   that are not plain JSON data; nothing is stored then.
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  open(approval: PendingApproval): boolean {
    if (!isUnredeemedHeldCall(approval))
      throw new MilpaError('SqliteApprovalStore.open() needs a well-formed, unredeemed PendingApproval.', { code: 'INVALID_ARGUMENT' });
    const argsJson = toPlainJsonText(approval.arguments, 'Held call arguments');
    return this.#database.transaction('approval', (db) => {
      const existing = db.prepare('SELECT forget_at FROM approval_holds WHERE approval_id = ?').get(approval.approvalId) as
        | { forget_at: unknown }
        | undefined;
      if (existing !== undefined && !(isTime(existing.forget_at) && existing.forget_at <= this.#database.now())) return false;
      db.prepare(
        'INSERT OR REPLACE INTO approval_holds (approval_id, tool, args_json, args_digest, principal, channel, run_id, ' +
          'request_id, created_at, expires_at, redeemed_at, forget_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)',
      ).run(
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
      );
      return true;
    });
  }

  /**
   * The held call with that id (used or not), or null when unknown, forgotten, or the id is not a string.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  get(approvalId: string): PendingApproval | null {
    if (typeof approvalId !== 'string') return null;
    return this.#database.read('approval', (db) => this.#load(db.prepare(SELECT_HOLD).get(approvalId) as HoldRow | undefined));
  }

  /**
   * Checks `claim` against the held call and marks it used, in one transaction.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed;
   *   nothing changed then.
   */
  redeem(approvalId: string, claim: ApprovalClaim): ApprovalRedemption {
    if (typeof approvalId !== 'string') return { status: 'refused', refusal: 'not_found', approval: null };
    return this.#database.transaction('approval', (db) => {
      const approval = this.#load(db.prepare(SELECT_HOLD).get(approvalId) as HoldRow | undefined);
      if (approval === null) return { status: 'refused', refusal: 'not_found', approval: null };
      const refusal = checkApprovalClaim(approval, claim);
      if (refusal !== null) return { status: 'refused', refusal, approval };
      const redeemedAt = this.#database.now();
      db.prepare('UPDATE approval_holds SET redeemed_at = ?, forget_at = ? WHERE approval_id = ?').run(
        redeemedAt,
        redeemedAt + this.#retentionMs + 1,
        approvalId,
      );
      return { status: 'redeemed', approval: Object.freeze({ ...approval, redeemedAt: new Date(redeemedAt) }) };
    });
  }

  /**
   * Records how the redeemed held call ended, once, in one transaction: false (nothing changed) when
   * the id is unknown, the call was never redeemed or it is settled already.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed settlement.
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  settle(approvalId: string, settlement: ApprovalSettlement): boolean {
    if (!isApprovalSettlement(settlement))
      throw new MilpaError('SqliteApprovalStore.settle() needs { outcome, code, at }.', { code: 'INVALID_ARGUMENT' });
    if (typeof approvalId !== 'string') return false;
    return this.#database.transaction('approval', (db) => {
      const approval = this.#load(db.prepare(SELECT_HOLD).get(approvalId) as HoldRow | undefined);
      if (approval === null || approval.redeemedAt === null || approval.settlement !== null) return false;
      db.prepare('UPDATE approval_holds SET settled_outcome = ?, settled_code = ?, settled_at = ? WHERE approval_id = ?').run(
        settlement.outcome,
        settlement.code,
        settlement.at.getTime(),
        approvalId,
      );
      return true;
    });
  }

  #load(row: HoldRow | undefined): PendingApproval | null {
    if (row === undefined) return null;
    if (isTime(row.forget_at) && row.forget_at <= this.#database.now()) return null;
    return decode(row);
  }
}
