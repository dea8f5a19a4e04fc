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
import { isApprovalSettlement, isUnredeemedHeldCall } from '@milpa/core/kit';
import { fromJsonText, toJsonText } from '../connection/json-text.js';
import { RetainedRecords, type Retained, type RetainedWrite } from '../connection/retained-records.js';
import { malformedData, type StoreConnection } from '../connection/store-connection.js';
import { StoredFields } from '../connection/stored-fields.js';

/** `approval` to store, forgotten at `forgetAt`. */
function toWrite(approval: PendingApproval, forgetAt: number): RetainedWrite {
  const text = toJsonText(
    {
      forgetAt,
      approvalId: approval.approvalId,
      toolName: approval.toolName,
      arguments: approval.arguments,
      argumentsDigest: approval.argumentsDigest,
      principal: approval.principal,
      channel: approval.channel,
      runId: approval.runId,
      requestId: approval.requestId,
      createdAt: approval.createdAt.getTime(),
      expiresAt: approval.expiresAt.getTime(),
      redeemedAt: approval.redeemedAt?.getTime() ?? null,
      settlement:
        (approval.settlement ?? null) === null
          ? null
          : { outcome: approval.settlement!.outcome, code: approval.settlement!.code, at: approval.settlement!.at.getTime() },
    },
    'Held call arguments',
  );
  return { text, forgetAt };
}

/** The stored settlement (absent from records written before it existed), or null while unsettled. */
function decodeSettlement(approvalId: string, stored: unknown): ApprovalSettlement | null {
  if (stored === undefined || stored === null) return null;
  const { outcome, code, at } = stored as { outcome?: unknown; code?: unknown; at?: unknown };
  const settlement = { outcome, code, at: typeof at === 'number' ? new Date(at) : null };
  if (!isApprovalSettlement(settlement)) throw malformedData('approval', `held call '${approvalId}': a malformed settlement`);
  return Object.freeze(settlement);
}

function decode(approvalId: string, text: string): Retained<PendingApproval> {
  const fields = StoredFields.of(fromJsonText(text), (what) => malformedData('approval', `held call '${approvalId}': ${what}`));
  return Object.freeze({
    forgetAt: fields.time('forgetAt').getTime(),
    value: Object.freeze({
      approvalId: fields.text('approvalId'),
      toolName: fields.text('toolName'),
      arguments: fields.object('arguments') as ToolArgs,
      argumentsDigest: fields.text('argumentsDigest'),
      principal: fields.textOrNull('principal'),
      channel: fields.text('channel'),
      runId: fields.textOrNull('runId'),
      requestId: fields.text('requestId'),
      createdAt: fields.time('createdAt'),
      expiresAt: fields.time('expiresAt'),
      redeemedAt: fields.timeOrNull('redeemedAt'),
      settlement: decodeSettlement(approvalId, fields.raw('settlement')),
    }),
  });
}

/**
 * The {@link ApprovalStore} over Redis: a call held for approval in one process can be resumed,
 * exactly once, from any process that shares the Redis server, by the tool, principal, channel and
 * run that asked. A process that dies while a call waits loses nothing.
 *
 * - Each held call is one key, `<prefix>approval:<id>`, holding it as JSON; the held arguments
 *   must be plain JSON data.
 * - `redeem` reads the held call, checks the claim with the rule every store applies
 *   (`checkApprovalClaim`) and marks it used through one compare-and-set Lua script that succeeds
 *   only if the key still holds what was read; a resume that loses the race reads again and is
 *   refused as `used`. However many resumes race, in one process or many, exactly one redeems it.
 *   A claim by another caller is refused and leaves the call redeemable by its requester.
 * - A held call is kept until its expiry plus the retention, a used one until the retention has
 *   passed since its use, so a late resume is told "expired" or "used" rather than "unknown"; the
 *   key's TTL on the server ends then.
 *
 * Get one from {@link RedisStores.connect}.
 *
 * @example
 * const stores = await RedisStores.connect({ url: 'redis://127.0.0.1:6379' });
 * const registry = new ToolRegistry({ approvalGate, approvalStore: stores.approval });
 */
export class RedisApprovalStore implements ApprovalStore {
  readonly #records: RetainedRecords<PendingApproval>;
  readonly #connection: StoreConnection;
  readonly #retentionMs: number;

  /** @internal Use {@link RedisStores.connect}. */
  constructor(connection: StoreConnection, retentionMs: number) {
    this.#records = new RetainedRecords(connection, 'approval', 'approval', decode);
    this.#connection = connection;
    this.#retentionMs = retentionMs;
  }

  /**
   * Stores a new held call; false when its id is taken by a call still kept.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed or already redeemed record, or arguments
   *   that are not plain JSON data; nothing is stored then.
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async open(approval: PendingApproval): Promise<boolean> {
    if (!isUnredeemedHeldCall(approval))
      throw new MilpaError('RedisApprovalStore.open() needs a well-formed, unredeemed PendingApproval.', { code: 'INVALID_ARGUMENT' });
    return this.#records.insert(approval.approvalId, toWrite(approval, approval.expiresAt.getTime() + this.#retentionMs + 1));
  }

  /**
   * The held call with that id (used or not), or null when unknown, forgotten, or the id is not a string.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async get(approvalId: string): Promise<PendingApproval | null> {
    return typeof approvalId === 'string' ? this.#records.get(approvalId) : null;
  }

  /**
   * Checks `claim` against the held call and marks it used, atomically.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed;
   *   nothing changed then (unless the failure is a timeout, when the call may have been marked used).
   */
  async redeem(approvalId: string, claim: ApprovalClaim): Promise<ApprovalRedemption> {
    if (typeof approvalId !== 'string') return { status: 'refused', refusal: 'not_found', approval: null };
    return this.#records.update<ApprovalRedemption>(approvalId, (approval) => {
      if (approval === null) return { answer: { status: 'refused', refusal: 'not_found', approval: null } };
      const refusal = checkApprovalClaim(approval, claim);
      if (refusal !== null) return { answer: { status: 'refused', refusal, approval } };
      const redeemedAt = this.#connection.now();
      const redeemed: PendingApproval = Object.freeze({ ...approval, redeemedAt: new Date(redeemedAt) });
      return { answer: { status: 'redeemed', approval: redeemed }, write: toWrite(redeemed, redeemedAt + this.#retentionMs + 1) };
    });
  }

  /**
   * Records how the redeemed held call ended, once, through the same compare-and-set as `redeem`:
   * false (nothing changed) when the id is unknown, the call was never redeemed or it is settled already.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed settlement.
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async settle(approvalId: string, settlement: ApprovalSettlement): Promise<boolean> {
    if (!isApprovalSettlement(settlement))
      throw new MilpaError('RedisApprovalStore.settle() needs { outcome, code, at }.', { code: 'INVALID_ARGUMENT' });
    if (typeof approvalId !== 'string') return false;
    return this.#records.update<boolean>(approvalId, (approval) => {
      if (approval === null || approval.redeemedAt === null || (approval.settlement ?? null) !== null) return { answer: false };
      const settled: PendingApproval = Object.freeze({ ...approval, settlement: Object.freeze({ ...settlement }) });
      return { answer: true, write: toWrite(settled, approval.redeemedAt.getTime() + this.#retentionMs + 1) };
    });
  }
}
