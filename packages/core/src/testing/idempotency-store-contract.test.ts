import { describe, expect, it } from 'vitest';
import type { IdempotencyBegin, IdempotencyClaim, IdempotencyRecord, IdempotencyStore } from '../contracts/idempotency-store.js';
import { completeIdempotencyRecord, decideIdempotencyBegin, mayReleaseIdempotencyRecord } from '../idempotency/idempotency-rules.js';
import type { ToolResultJson } from '../result/tool-result.js';
import { failingCaseNames } from './contract-failures.test-helper.js';
import { idempotencyStoreContract } from './idempotency-store-contract.js';

interface Flaws {
  /** begin reads, yields, then writes: racing calls all start. */
  readonly racy?: boolean;
  /** the arguments digest is not compared. */
  readonly ignoresArguments?: boolean;
  /** anyone may complete or release. */
  readonly ignoresOwner?: boolean;
  /** in-flight keys never count as abandoned. */
  readonly ignoresLease?: boolean;
  /** keys are kept forever. */
  readonly neverForgets?: boolean;
}

/** A small idempotency store over the shared rules, with optional flaws the suite must catch. */
class FakeIdempotencyStore implements IdempotencyStore {
  readonly #records = new Map<string, IdempotencyRecord>();

  constructor(private readonly flaws: Flaws) {}

  async begin(claim: IdempotencyClaim): Promise<IdempotencyBegin> {
    const current = this.#records.get(claim.key) ?? null;
    if (this.flaws.racy) await new Promise((resolve) => setTimeout(resolve, 1));
    let seen = current;
    if (seen !== null && this.flaws.ignoresArguments) seen = { ...seen, argumentsDigest: claim.argumentsDigest };
    if (seen !== null && this.flaws.ignoresLease) seen = { ...seen, leaseExpiresAt: new Date(8.64e15) };
    if (seen !== null && this.flaws.neverForgets) seen = { ...seen, forgetAt: new Date(8.64e15) };
    const { answer, next } = decideIdempotencyBegin(seen, claim);
    if (next !== null) this.#records.set(claim.key, next);
    return answer;
  }

  complete(key: string, owner: string, result: ToolResultJson, at: Date, retentionMs: number): boolean {
    const current = this.#records.get(key) ?? null;
    const next = completeIdempotencyRecord(
      current,
      this.flaws.ignoresOwner && current !== null ? current.owner : owner,
      result,
      at,
      retentionMs,
    );
    if (next === null) return false;
    this.#records.set(key, next);
    return true;
  }

  release(key: string, owner: string): boolean {
    const current = this.#records.get(key) ?? null;
    if (!mayReleaseIdempotencyRecord(current, this.flaws.ignoresOwner && current !== null ? current.owner : owner, new Date(0)))
      return false;
    this.#records.delete(key);
    return true;
  }

  get(key: string): IdempotencyRecord | null {
    return this.#records.get(key) ?? null;
  }
}

function failuresOf(flaws: Flaws): Promise<string[]> {
  return failingCaseNames(idempotencyStoreContract(() => new FakeIdempotencyStore(flaws)));
}

describe('idempotencyStoreContract', () => {
  it('passes a store that keeps the contract', async () => {
    expect(await failuresOf({})).toEqual([]);
  });

  it('fails a store whose begins race', async () => {
    expect(await failuresOf({ racy: true })).toEqual(['20 calls racing with one key start it exactly once; the others are told in_flight']);
  });

  it('fails a store that ignores the arguments', async () => {
    expect(await failuresOf({ ignoresArguments: true })).toEqual([
      'the key used for another tool, principal or arguments is a conflict, in flight and completed, and changes nothing',
      'a key is free again once forgotten, whatever it held',
    ]);
  });

  it('fails a store that lets anyone complete or release', async () => {
    expect(await failuresOf({ ignoresOwner: true })).toEqual([
      'only the owner completes, and only once',
      'release by the owner frees the key for the next call; release by anyone else changes nothing',
    ]);
  });

  it('fails a store that never abandons a call in flight', async () => {
    expect(await failuresOf({ ignoresLease: true })).toEqual([
      'a call in flight past its lease is abandoned: later calls are refused, and its owner may still complete it',
    ]);
  });

  it('fails a store that never forgets a key', async () => {
    expect(await failuresOf({ neverForgets: true })).toEqual(['a key is free again once forgotten, whatever it held']);
  });
});
