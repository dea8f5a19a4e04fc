import { describe, expect, it, vi } from 'vitest';
import type { ConfirmationBinding, ConfirmationStore, ConfirmationToken } from '../contracts/confirmation-store.js';
import type { ToolArgs } from '../tools/tool-definition.js';
import { confirmationStoreContract } from './confirmation-store-contract.js';
import type { StoreContractCase } from './store-contract-case.js';
import { StoreContractError } from './store-contract-error.js';
import { failingCaseNames } from './contract-failures.test-helper.js';

interface Flaws {
  /** consume returns the args but keeps the token. */
  readonly reusable?: boolean;
  /** the binding's principal is not compared. */
  readonly ignoresPrincipal?: boolean;
  /** tokens never expire. */
  readonly immortal?: boolean;
  /** consume checks, yields, then deletes: racing consumers all win. */
  readonly racy?: boolean;
  /** the caller's object is stored, not a copy. */
  readonly aliased?: boolean;
}

/** A small confirmation store on a manual clock, with optional flaws the suite must catch. */
class FakeConfirmationStore implements ConfirmationStore {
  readonly #tokens = new Map<string, { tool: string; args: ToolArgs; principal: string | null; channel: string; expiresAt: number }>();
  #next = 0;

  constructor(
    private readonly ttlSeconds: number,
    private readonly clock: { now: number },
    private readonly flaws: Flaws,
  ) {}

  create(toolName: string, args: ToolArgs, actionSummary: string, binding: ConfirmationBinding): ConfirmationToken {
    this.#next += 1;
    const token = this.#next.toString(16).padStart(32, '0');
    const expiresAt = this.clock.now + this.ttlSeconds * 1000;
    const stored = this.flaws.aliased ? args : structuredClone(args);
    this.#tokens.set(token, { tool: toolName, args: stored, principal: binding.principal, channel: binding.channel, expiresAt });
    return { token, expiresAt: new Date(expiresAt), actionSummary };
  }

  async consume(token: string, toolName: string, binding: ConfirmationBinding): Promise<ToolArgs | null> {
    if (!this.isValid(token, toolName, binding)) return null;
    const entry = this.#tokens.get(token);
    if (this.flaws.racy) await new Promise((resolve) => setTimeout(resolve, 1));
    if (!this.flaws.reusable) this.#tokens.delete(token);
    return entry?.args ?? null;
  }

  isValid(token: string, toolName: string, binding: ConfirmationBinding): boolean {
    const entry = this.#tokens.get(token);
    if (entry === undefined || entry.tool !== toolName || entry.channel !== binding.channel) return false;
    if (!this.flaws.ignoresPrincipal && entry.principal !== binding.principal) return false;
    return this.flaws.immortal === true || this.clock.now <= entry.expiresAt;
  }
}

function casesFor(flaws: Flaws = {}): readonly StoreContractCase[] {
  const clock = { now: Date.UTC(2030, 0, 1) };
  return confirmationStoreContract({
    create: ({ ttlSeconds }) => new FakeConfirmationStore(ttlSeconds, clock, flaws),
    advanceTime: (milliseconds) => {
      clock.now += milliseconds;
    },
  });
}

describe('confirmationStoreContract', () => {
  it('returns a frozen list of frozen, uniquely named cases', () => {
    const cases = casesFor();
    expect(Object.isFrozen(cases)).toBe(true);
    expect(cases.every((contractCase) => Object.isFrozen(contractCase))).toBe(true);
    expect(new Set(cases.map((contractCase) => contractCase.name)).size).toBe(cases.length);
  });

  it('passes a store that keeps the contract', async () => {
    expect(await failingCaseNames(casesFor())).toEqual([]);
  });

  it('fails a store whose tokens redeem more than once', async () => {
    expect(await failingCaseNames(casesFor({ reusable: true }))).toContain(
      'consume returns the stored arguments once and null on every later attempt',
    );
  });

  it('fails a store whose consume lets racing callers all win', async () => {
    expect(await failingCaseNames(casesFor({ racy: true }))).toEqual(['consume redeems a token exactly once when 25 callers race for it']);
  });

  it('fails a store that does not bind tokens to the principal', async () => {
    expect(await failingCaseNames(casesFor({ ignoresPrincipal: true }))).toEqual([
      'a token presented by another principal is refused and stays redeemable by the one that asked',
      "an anonymous token redeems only anonymously, and a principal's token never anonymously",
    ]);
  });

  it('fails a store whose tokens never expire', async () => {
    expect(await failingCaseNames(casesFor({ immortal: true }))).toEqual([
      'a token is neither valid nor redeemable once its lifetime has passed',
    ]);
  });

  it("fails a store that keeps the caller's object instead of a snapshot", async () => {
    expect(await failingCaseNames(casesFor({ aliased: true }))).toEqual([
      'consume returns the arguments as they were at create, whatever the caller changed since',
    ]);
  });

  it('disposes every store it created, also when a case fails', async () => {
    const disposed: ConfirmationStore[] = [];
    const created: ConfirmationStore[] = [];
    const clock = { now: 0 };
    const cases = confirmationStoreContract({
      create: ({ ttlSeconds }) => {
        const store = new FakeConfirmationStore(ttlSeconds, clock, { reusable: true });
        created.push(store);
        return store;
      },
      dispose: (store) => {
        disposed.push(store);
      },
      advanceTime: (milliseconds) => {
        clock.now += milliseconds;
      },
    });
    await failingCaseNames(cases);
    expect(disposed).toEqual(created);
    expect(created).toHaveLength(cases.length);
  });

  it('accepts a bare create function', async () => {
    const clock = { now: 0 };
    const [first] = confirmationStoreContract(({ ttlSeconds }) => new FakeConfirmationStore(ttlSeconds, clock, {}));
    await expect(first?.run()).resolves.toBeUndefined();
  });

  it('names what the store did in the error message', async () => {
    const failing = casesFor({ reusable: true }).find((contractCase) =>
      contractCase.name.startsWith('consume returns the stored arguments once'),
    );
    await expect(failing?.run()).rejects.toThrow(
      'a second consume of a used token should be null; got {"id":42,"tags":["a","b"],"nested":{"dry":false,"note":null}}.',
    );
  });

  it('waits the time out with a timer when the harness cannot advance the clock', async () => {
    vi.useFakeTimers();
    try {
      const clock = { now: Date.UTC(2030, 0, 1) };
      const expiryCase = confirmationStoreContract(({ ttlSeconds }) => new FakeConfirmationStore(ttlSeconds, clock, {})).find(
        (contractCase) => contractCase.name.startsWith('a token is neither valid'),
      );
      // The fake's clock stands still, so the case fails once its wait is over, and not before.
      let settled: unknown = 'waiting';
      void expiryCase?.run().then(
        () => (settled = 'passed'),
        (error: unknown) => (settled = error),
      );
      await vi.advanceTimersByTimeAsync(3_499);
      expect(settled).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBeInstanceOf(StoreContractError);
    } finally {
      vi.useRealTimers();
    }
  });
});
